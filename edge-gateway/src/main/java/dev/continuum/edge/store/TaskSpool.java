package dev.continuum.edge.store;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Wire;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Store-and-forward on local disk, so a gateway cut off from the broker keeps working and a
 * restarted one loses nothing.
 * <pre>
 *   inbox/&lt;seq&gt;-&lt;key&gt;.json   tasks accepted, not yet finished, run in seq order
 *   outbox/&lt;seq&gt;-&lt;key&gt;.json  results not yet acknowledged by the broker, sent in seq order
 *   done/&lt;key&gt;.json          results delivered; kept {@code keepDone} so a repeated task id gets
 *                            its result again instead of a second run
 * </pre>
 * The inbox is bounded by total bytes (a task that would overflow it is refused, never silently
 * dropped) and by age (a task older than {@code maxAge}, or past its own deadline, is finished
 * as FAILED "expired" without running). Each file is written to a temporary name, optionally
 * fsynced, then atomically renamed, so a crash leaves either the whole entry or none.
 */
public final class TaskSpool {

    public record Limits(long maxBytes, Duration maxAge, Duration keepDone, boolean fsync) {
        public static Limits defaults() {
            return new Limits(256L * 1024 * 1024, Duration.ofHours(24), Duration.ofDays(1), true);
        }

        public Limits withMaxBytes(long value) { return new Limits(value, maxAge, keepDone, fsync); }
        public Limits withMaxAge(Duration value) { return new Limits(maxBytes, value, keepDone, fsync); }
        public Limits withFsync(boolean value) { return new Limits(maxBytes, maxAge, keepDone, value); }
    }

    /** What became of a task offered to the spool. */
    public sealed interface Admission permits Accepted, Duplicate, Rejected {}

    /** Spooled; {@code position} tasks are ahead of it. */
    public record Accepted(long sequence, int position) implements Admission {}

    /** Seen before: {@code result} is present when it already finished (resend it), empty while it waits or runs. */
    public record Duplicate(Optional<ResultMessage> result) implements Admission {}

    /** Refused (e.g. spool full); the caller reports it as a failed result. */
    public record Rejected(String reason) implements Admission {}

    /** A task waiting in the inbox. */
    public record Spooled(long sequence, TaskMessage task, Instant receivedAt, long bytes) {}

    private record Delivery(long sequence, ResultMessage result) {}

    private final Path inbox;
    private final Path outbox;
    private final Path done;
    private final Limits limits;
    private final Clock clock;
    private final TreeMap<Long, Spooled> waiting = new TreeMap<>();
    private final Map<String, Long> waitingByTask = new java.util.HashMap<>();
    private final TreeMap<Long, Delivery> undelivered = new TreeMap<>();
    private final Map<String, Long> undeliveredByTask = new java.util.HashMap<>();
    private long nextSequence = 1;
    private long bytes;

    private TaskSpool(Path dir, Limits limits, Clock clock) {
        this.inbox = dir.resolve("inbox");
        this.outbox = dir.resolve("outbox");
        this.done = dir.resolve("done");
        this.limits = limits;
        this.clock = clock;
    }

    /** Opens (creating if needed) the spool in {@code dir} and reloads whatever a previous process left. */
    public static TaskSpool open(Path dir, Limits limits, Clock clock) {
        TaskSpool spool = new TaskSpool(dir, limits, clock);
        spool.reload();
        return spool;
    }

    public synchronized Admission admit(TaskMessage task) {
        String key = key(task.taskId());
        if (waitingByTask.containsKey(task.taskId())) {
            return new Duplicate(Optional.empty());
        }
        Long pendingResult = undeliveredByTask.get(task.taskId());
        if (pendingResult != null) {
            return new Duplicate(Optional.of(undelivered.get(pendingResult).result()));
        }
        Path finished = done.resolve(key + ".json");
        if (Files.exists(finished)) {
            return new Duplicate(Optional.of(Wire.decode(read(finished), ResultMessage.class)));
        }
        byte[] json = Wire.encode(new StoredTask(task, clock.instant().toString()));
        if (bytes + json.length > limits.maxBytes()) {
            return new Rejected("spool full: " + bytes + " of " + limits.maxBytes() + " bytes in use");
        }
        long seq = nextSequence++;
        write(inbox.resolve(name(seq, key)), json);
        waiting.put(seq, new Spooled(seq, task, clock.instant(), json.length));
        waitingByTask.put(task.taskId(), seq);
        bytes += json.length;
        notifyAll();
        return new Accepted(seq, waiting.size() - 1);
    }

    /** The oldest waiting tasks, in order (they stay spooled until {@link #finish}). */
    public synchronized List<Spooled> head(int max) {
        return waiting.values().stream().limit(max).toList();
    }

    /** Blocks until a task waits or the timeout passes. */
    public synchronized boolean awaitWork(Duration timeout) throws InterruptedException {
        long until = System.nanoTime() + timeout.toNanos();
        while (waiting.isEmpty()) {
            long left = until - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return true;
    }

    /** True when the task must not run any more: past its deadline, or spooled longer than maxAge. */
    public boolean expired(Spooled s) {
        Instant now = clock.instant();
        return s.task().expiredAt(now) || s.receivedAt().plus(limits.maxAge()).isBefore(now);
    }

    /** Records the result of a waiting task: it moves from the inbox to the outbox in one step. */
    public synchronized void finish(String taskId, ResultMessage result) {
        Long seq = waitingByTask.remove(taskId);
        if (seq == null) {
            return;
        }
        Spooled s = waiting.remove(seq);
        String key = key(taskId);
        long outSeq = nextSequence++;
        write(outbox.resolve(name(outSeq, key)), Wire.encode(result));
        delete(inbox.resolve(name(seq, key)));
        bytes -= s.bytes();
        undelivered.put(outSeq, new Delivery(outSeq, result));
        undeliveredByTask.put(taskId, outSeq);
    }

    /** Results still to deliver, oldest first. */
    public synchronized List<ResultMessage> undelivered() {
        return undelivered.values().stream().map(Delivery::result).toList();
    }

    /** The broker has the result: keep it only as the answer to a repeated task id. */
    public synchronized void delivered(String taskId) {
        Long seq = undeliveredByTask.remove(taskId);
        if (seq == null) {
            return;
        }
        Delivery d = undelivered.remove(seq);
        String key = key(taskId);
        // not fsynced: losing this record in a crash only means a later repeat of the task id, which
        // the cloud would have to send after already holding the result, runs again
        write(done.resolve(key + ".json"), Wire.encode(d.result()), false);
        delete(outbox.resolve(name(seq, key)));
    }

    public synchronized int queued() {
        return waiting.size();
    }

    public synchronized long bytesInUse() {
        return bytes;
    }

    /** Forgets delivered results older than keepDone; returns how many. */
    public synchronized int pruneDone() {
        Instant cutoff = clock.instant().minus(limits.keepDone());
        int removed = 0;
        try (Stream<Path> files = Files.list(done)) {
            for (Path p : files.toList()) {
                if (Files.getLastModifiedTime(p).toInstant().isBefore(cutoff)) {
                    delete(p);
                    removed++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return removed;
    }

    private record StoredTask(
            @com.fasterxml.jackson.annotation.JsonProperty("task") TaskMessage task,
            @com.fasterxml.jackson.annotation.JsonProperty("received_at") String receivedAt) {}

    private void reload() {
        try {
            Files.createDirectories(inbox);
            Files.createDirectories(outbox);
            Files.createDirectories(done);
            for (Path p : sorted(inbox)) {
                byte[] json = read(p);
                long seq = sequenceOf(p);
                StoredTask stored = Wire.decode(json, StoredTask.class);
                waiting.put(seq, new Spooled(seq, stored.task(), Instant.parse(stored.receivedAt()), json.length));
                waitingByTask.put(stored.task().taskId(), seq);
                bytes += json.length;
                nextSequence = Math.max(nextSequence, seq + 1);
            }
            for (Path p : sorted(outbox)) {
                long seq = sequenceOf(p);
                ResultMessage result = Wire.decode(read(p), ResultMessage.class);
                // a crash between writing the result and removing the task leaves both: the result wins
                Long dup = waitingByTask.remove(result.taskId());
                if (dup != null) {
                    Spooled s = waiting.remove(dup);
                    bytes -= s.bytes();
                    delete(inbox.resolve(name(dup, key(result.taskId()))));
                }
                undelivered.put(seq, new Delivery(seq, result));
                undeliveredByTask.put(result.taskId(), seq);
                nextSequence = Math.max(nextSequence, seq + 1);
            }
            try (Stream<Path> tmp = Files.list(inbox.getParent())) {
                tmp.filter(p -> p.getFileName().toString().endsWith(".tmp")).forEach(TaskSpool::delete);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> sorted(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new ArrayList<>(files.filter(p -> p.toString().endsWith(".json")).sorted().toList());
        }
    }

    private static long sequenceOf(Path p) {
        String n = p.getFileName().toString();
        return Long.parseLong(n.substring(0, n.indexOf('-')));
    }

    private static String name(long seq, String key) {
        return String.format("%020d-%s.json", seq, key);
    }

    /** A file-name-safe key for a task id: itself when harmless, else a hash. */
    static String key(String taskId) {
        if (taskId.matches("[A-Za-z0-9._-]{1,100}") && !taskId.startsWith(".")) {
            return taskId;
        }
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(taskId.getBytes(StandardCharsets.UTF_8));
            return "h_" + HexFormat.of().formatHex(h);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private void write(Path target, byte[] content) {
        write(target, content, limits.fsync());
    }

    private void write(Path target, byte[] content, boolean sync) {
        Path tmp = target.getParent().getParent().resolve(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            if (sync) {
                ch.force(true);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move into " + target, e);
        }
    }

    private static byte[] read(Path p) {
        try {
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
