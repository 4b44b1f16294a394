package dev.continuum.edge.gateway.store;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.Wire;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The gateway's file-event outbox: every {@link FileEvent} a watch produced, kept on disk until the broker
 * acknowledged it, and which files were already sent, so a file is an event once — across link loss, broker
 * outages and gateway restarts. An append-only {@link SpoolJournal} (group-committed syncs, a torn tail cut off
 * on open) in its own file, rewritten with only what is still needed when delivered records pile up.
 *
 * <p>A file counts as sent under its watch and {@code path:size:mtime} (its id without the hash, so a file need not
 * be read again to know it was sent). The watcher forgets files that left the directory ({@link #retainSent}), so
 * what is kept is bounded by the files present, not by the files ever seen.
 */
public final class FileEventLog implements AutoCloseable {

    static final byte EVENT = 4;
    static final byte DELIVERED = 5;
    static final byte SENT = 6;
    private static final int COMPACT_AFTER_DELIVERED = 4096;

    /** An event not yet acknowledged by the broker, in the order it was made. */
    public record Pending(long seq, FileEvent event) {}

    private final Path file;
    private final SpoolJournal journal;
    private final Map<Long, FileEvent> pending = new LinkedHashMap<>();
    private final Map<String, Set<String>> sent = new HashMap<>();
    private long nextSeq = 1;
    private int deliveredSinceCompaction;

    private FileEventLog(Path file, boolean sync) {
        this.file = file;
        this.journal = SpoolJournal.open(file, sync, this::replay);
    }

    /** Opens (or creates) the log in {@code dir}; {@code sync} false only for tests that need no disk syncs. */
    public static FileEventLog open(Path dir, boolean sync) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new FileEventLog(dir.resolve("file-events.log"), sync);
    }

    /** The id under which a file counts as sent: its path, size and mtime. */
    public static String sentKey(FileEvent.WatchedFile f) {
        return f.path() + ":" + f.size() + ":" + f.mtimeMs();
    }

    private void replay(SpoolJournal.Entry e) {
        switch (e.type()) {
            case EVENT -> {
                FileEvent event = Wire.decode(e.payload(), FileEvent.class);
                pending.put(e.a(), event);
                markSent(event);
                nextSeq = Math.max(nextSeq, e.a() + 1);
            }
            case DELIVERED -> pending.remove(e.a());
            case SENT -> {
                String[] parts = new String(e.payload(), StandardCharsets.UTF_8).split("\n", 2);
                sent.computeIfAbsent(parts[0], w -> new HashSet<>()).add(parts[1]);
            }
            default -> { } // a record of a later version: skipped
        }
    }

    /** Appends {@code event} (not yet durable: {@link #sync} before publishing it) and marks its files sent. */
    public synchronized long append(FileEvent event) {
        long seq = nextSeq++;
        journal.append(new SpoolJournal.Entry(EVENT, seq, 0, Wire.encode(event)));
        pending.put(seq, event);
        markSent(event);
        return seq;
    }

    /** Everything appended so far on disk (one sync for all of it). */
    public void sync() {
        journal.awaitDurable(journal.end());
    }

    public synchronized boolean wasSent(String watchId, String key) {
        Set<String> keys = sent.get(watchId);
        return keys != null && keys.contains(key);
    }

    /** Forgets the sent files of {@code watchId} not in {@code present} (they left the directory). */
    public synchronized void retainSent(String watchId, Set<String> present) {
        Set<String> keys = sent.get(watchId);
        if (keys != null) {
            keys.retainAll(present);
        }
    }

    public synchronized List<Pending> pending(int max) {
        List<Pending> out = new ArrayList<>(Math.min(max, pending.size()));
        for (Map.Entry<Long, FileEvent> e : pending.entrySet()) {
            if (out.size() == max) {
                break;
            }
            out.add(new Pending(e.getKey(), e.getValue()));
        }
        return out;
    }

    public synchronized int undelivered() {
        return pending.size();
    }

    /**
     * The broker acknowledged {@code seq}. Written without a sync: losing it to a power cut only sends the event
     * again, which the cloud recognises by its event id.
     */
    public synchronized void delivered(long seq) {
        if (pending.remove(seq) == null) {
            return;
        }
        journal.append(new SpoolJournal.Entry(DELIVERED, seq, 0, new byte[0]));
        if (++deliveredSinceCompaction >= COMPACT_AFTER_DELIVERED && deliveredSinceCompaction >= 2 * pending.size()) {
            compact();
        }
    }

    private void markSent(FileEvent event) {
        Set<String> keys = sent.computeIfAbsent(event.watchId(), w -> new HashSet<>());
        for (FileEvent.WatchedFile f : event.files()) {
            keys.add(sentKey(f));
        }
    }

    private void compact() {
        List<SpoolJournal.Entry> live = new ArrayList<>();
        sent.forEach((watch, keys) -> keys.forEach(k ->
                live.add(new SpoolJournal.Entry(SENT, 0, 0, (watch + "\n" + k).getBytes(StandardCharsets.UTF_8)))));
        pending.forEach((seq, event) -> live.add(new SpoolJournal.Entry(EVENT, seq, 0, Wire.encode(event))));
        journal.rewrite(live);
        deliveredSinceCompaction = 0;
    }

    @Override
    public synchronized void close() {
        journal.close();
    }

    @Override
    public String toString() {
        return "FileEventLog[" + file + ", " + pending.size() + " undelivered]";
    }
}
