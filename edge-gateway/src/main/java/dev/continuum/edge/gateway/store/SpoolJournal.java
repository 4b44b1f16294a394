package dev.continuum.edge.gateway.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * The spool's append-only log. Each record is {@code [length][crc32c][type][a][b][payload]}; a
 * record torn by a crash (short, or a bad checksum) ends the log and is cut off on open.
 *
 * <p>Why a log and not a file per entry: creating, fsyncing and renaming a file costs a metadata
 * journal commit (2.7 ms on this machine's disk, 13 ms+ under load), while {@code fdatasync} of an
 * append costs 0.3 ms. And {@link #awaitDurable} is a group commit: whoever syncs first covers every
 * record written so far, so concurrent writers share one sync, and a record being durable implies
 * every earlier one is.
 */
final class SpoolJournal implements AutoCloseable {

    static final byte TASK = 1;
    static final byte RESULT = 2;
    static final byte DELIVERED = 3;
    private static final int HEADER = 4 + 4;
    private static final int FIXED = 1 + 8 + 8;

    /**
     * One record. TASK: a = sequence, b = received at (epoch ms), payload = the task message as it came;
     * RESULT: a = the task's sequence (0 after compaction), b = result sequence, payload = the result;
     * DELIVERED: a = result sequence.
     */
    record Entry(byte type, long a, long b, byte[] payload) {}

    private final Path file;
    private final boolean sync;
    private final Object syncLock = new Object();
    private FileChannel channel;
    /** Positions are logical (bytes ever appended), so a mark taken before a compaction stays comparable after it. */
    private volatile long written;
    private volatile long synced;
    private long fileBytes;

    private SpoolJournal(Path file, boolean sync) {
        this.file = file;
        this.sync = sync;
    }

    /** Opens the log, hands every intact record to {@code replay} in order, and cuts off a torn tail. */
    static SpoolJournal open(Path file, boolean sync, Consumer<Entry> replay) {
        SpoolJournal j = new SpoolJournal(file, sync);
        try {
            j.channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            long good = j.replay(replay);
            if (good < j.channel.size()) {
                j.channel.truncate(good);
            }
            // what a crashed process wrote is in the page cache, not necessarily on disk: sync it
            // once, so every replayed record counts as durable
            if (sync && good > 0) {
                j.channel.force(true);
            }
            j.channel.position(good);
            j.written = good;
            j.synced = good;
            j.fileBytes = good;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open spool journal " + file, e);
        }
        return j;
    }

    private long replay(Consumer<Entry> replay) throws IOException {
        long size = channel.size();
        long pos = 0;
        ByteBuffer header = ByteBuffer.allocate(HEADER);
        while (pos + HEADER <= size) {
            header.clear();
            channel.read(header, pos);
            int length = header.getInt(0);
            int crc = header.getInt(4);
            if (length < FIXED || pos + HEADER + length > size) {
                break;
            }
            ByteBuffer body = ByteBuffer.allocate(length);
            channel.read(body, pos + HEADER);
            CRC32C check = new CRC32C();
            check.update(body.array());
            if ((int) check.getValue() != crc) {
                break;
            }
            body.flip();
            byte type = body.get();
            long a = body.getLong();
            long b = body.getLong();
            byte[] payload = new byte[length - FIXED];
            body.get(payload);
            replay.accept(new Entry(type, a, b, payload));
            pos += HEADER + length;
        }
        return pos;
    }

    /** Appends a record (not yet durable); returns the offset {@link #awaitDurable} waits for. */
    synchronized long append(Entry e) {
        ByteBuffer[] record = encode(e);
        long length = record[0].remaining() + record[1].remaining();
        try {
            do {
                channel.write(record); // gathering: a 110 kB tensor is not copied into a second buffer first
            } while (record[0].hasRemaining() || record[1].hasRemaining());
        } catch (IOException ex) {
            throw new UncheckedIOException("cannot append to " + file, ex);
        }
        written += length;
        fileBytes += length;
        return written;
    }

    /** Returns once everything up to {@code offset} is on disk (at once when sync is off). */
    void awaitDurable(long offset) {
        if (!sync || synced >= offset) {
            return;
        }
        synchronized (syncLock) {
            if (synced >= offset) {
                return; // another writer's sync covered this record
            }
            long upTo = written;
            try {
                channel.force(false);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot sync " + file, e);
            }
            synced = Math.max(synced, upTo);
        }
    }

    boolean durable(long offset) {
        return !sync || synced >= offset;
    }

    /** Bytes in the file (what compaction is decided on). */
    synchronized long size() {
        return fileBytes;
    }

    /** The logical position after the last record appended: {@code awaitDurable(end())} syncs everything. */
    long end() {
        return written;
    }

    /**
     * Replaces the log with {@code live} (the records still needed), atomically: written to a new
     * file, forced, renamed over the old one, directory synced. Called with the spool locked.
     */
    synchronized void rewrite(List<Entry> live) {
        synchronized (syncLock) {
            Path tmp = file.resolveSibling(file.getFileName() + ".compact");
            try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE)) {
                for (Entry e : live) {
                    ByteBuffer[] record = encode(e);
                    do {
                        out.write(record);
                    } while (record[0].hasRemaining() || record[1].hasRemaining());
                }
                out.force(true);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot compact " + file, e);
            }
            try {
                channel.close();
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
                    dir.force(true);
                }
                channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
                fileBytes = channel.size();
                channel.position(fileBytes);
                synced = written; // every live record is in the forced new file
            } catch (IOException e) {
                throw new UncheckedIOException("cannot replace " + file, e);
            }
        }
    }

    /** The record as its fixed head and its payload (written together, gathering). */
    private static ByteBuffer[] encode(Entry e) {
        ByteBuffer head = ByteBuffer.allocate(HEADER + FIXED);
        head.position(HEADER);
        head.put(e.type()).putLong(e.a()).putLong(e.b());
        CRC32C crc = new CRC32C();
        crc.update(head.array(), HEADER, FIXED);
        crc.update(e.payload());
        head.putInt(0, FIXED + e.payload().length).putInt(4, (int) crc.getValue());
        head.position(0);
        return new ByteBuffer[] {head, ByteBuffer.wrap(e.payload())};
    }

    @Override
    public synchronized void close() {
        try {
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
