package dev.continuum.provider.transfer.engine;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The on-disk memory of one transfer: which uploads were opened, which chunks were written and
 * verified, which files are complete. A restarted provider reads it and sends only what is not
 * in it, so no verified byte is sent twice. Append-only, one tab-separated line per event:
 * <pre>
 * U  dest  token  size  mtimeMillis     an upload of dest began (for a source of that size/mtime)
 * C  dest  index  hash  receipt         chunk index is written and verified (hash: see ChecksumAlgorithm)
 * D  dest  size  mtimeMillis            dest is complete
 * X  dest                               forget everything about dest (source changed, upload lost)
 * </pre>
 * Each line is written with one {@code write} call and flushed to the OS before the event is
 * acted on, so a killed process loses nothing that it reported. Paths cannot hold tabs or line
 * breaks: the normalizer refuses control characters. No fsync per line: after a power loss the
 * chunks of unfinished files are re-verified against the partial data (see docs/transfer.md).
 */
public final class TransferJournal implements AutoCloseable {

    /** What the journal knows of one destination file. */
    public record FileRecord(String token, long size, long mtimeMillis, SortedMap<Integer, Chunk> chunks, boolean done) {}

    /** {@code checksum} as {@link ChecksumAlgorithm#journalValue} writes it. */
    public record Chunk(String checksum, String receipt) {}

    private final Path file;
    private final Map<String, FileRecord> files = new HashMap<>();
    private final BufferedWriter out;

    private TransferJournal(Path file) throws IOException {
        this.file = file;
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                apply(line.split("\t", -1));
            }
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        this.out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }

    public static TransferJournal open(Path file) {
        try {
            return new TransferJournal(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open transfer journal " + file, e);
        }
    }

    private void apply(String[] f) {
        if (f.length < 2) {
            return;   // a torn last line from a crash
        }
        try {
            switch (f[0]) {
                case "U" -> files.put(f[1], new FileRecord(f[2], Long.parseLong(f[3]), Long.parseLong(f[4]),
                        new TreeMap<>(), false));
                case "C" -> {
                    FileRecord r = files.get(f[1]);
                    if (r != null && f.length >= 5) {
                        r.chunks().put(Integer.parseInt(f[2]), new Chunk(f[3], f[4]));
                    }
                }
                case "D" -> {
                    FileRecord r = files.get(f[1]);
                    SortedMap<Integer, Chunk> chunks = r == null ? new TreeMap<>() : r.chunks();
                    files.put(f[1], new FileRecord(r == null ? "" : r.token(), Long.parseLong(f[2]),
                            Long.parseLong(f[3]), chunks, true));
                }
                case "X" -> files.remove(f[1]);
                default -> { }
            }
        } catch (RuntimeException torn) {
            // an incomplete last line: ignore it, the event is redone
        }
    }

    private synchronized void append(String... fields) {
        String line = String.join("\t", fields);
        apply(fields);
        try {
            out.write(line + "\n");
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write transfer journal " + file, e);
        }
    }

    public synchronized Optional<FileRecord> find(String dest) {
        return Optional.ofNullable(files.get(dest));
    }

    public void uploadStarted(String dest, String token, long size, long mtimeMillis) {
        append("U", dest, token, Long.toString(size), Long.toString(mtimeMillis));
    }

    public void chunkVerified(String dest, int index, String checksum, String receipt) {
        append("C", dest, Integer.toString(index), checksum, receipt == null || receipt.isEmpty() ? "-" : receipt);
    }

    public void fileDone(String dest, long size, long mtimeMillis) {
        append("D", dest, Long.toString(size), Long.toString(mtimeMillis));
    }

    public void forget(String dest) {
        append("X", dest);
    }

    /** Chunk receipts of a file, for committing an upload whose chunks came from several runs. */
    public synchronized SortedMap<Integer, String> receipts(String dest) {
        SortedMap<Integer, String> out = new TreeMap<>();
        FileRecord r = files.get(dest);
        if (r != null) {
            r.chunks().forEach((i, c) -> out.put(i, c.receipt().equals("-") ? "" : c.receipt()));
        }
        return out;
    }

    public synchronized Optional<Chunk> chunk(String dest, int index) {
        FileRecord r = files.get(dest);
        return r == null ? Optional.empty() : Optional.ofNullable(r.chunks().get(index));
    }

    @Override
    public synchronized void close() {
        try {
            out.close();
        } catch (IOException ignored) {
            // nothing left to lose: every line was flushed when written
        }
    }

    /** Removes the journal once the transfer is finished. */
    public void delete() {
        close();
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a stale journal only costs disk space
        }
    }
}
