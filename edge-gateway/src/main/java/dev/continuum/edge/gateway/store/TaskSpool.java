package dev.continuum.edge.gateway.store;

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
import java.nio.file.attribute.FileTime;
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
import java.util.function.LongSupplier;
import java.util.stream.Stream;

/**
 * Store-and-forward on local disk, so a gateway cut off from the broker keeps working and a
 * restarted one loses nothing.
 * <pre>
 *   journal.log     append-only: task accepted, result recorded, result delivered ({@link SpoolJournal})
 *   done/&lt;key&gt;.json  results delivered; kept {@code keepDone} so a repeated task id gets its result
 *                   again instead of a second run (a hint: written without a sync); the file's time is its
 *                   delivery on the spool's clock
 * </pre>
 * A task is durable before {@link #admit} returns (so before the broker gets its PUBACK); a result
 * is durable before {@link #finish} returns (so before it is published), and it stays in the
 * journal until {@link #delivered}. The worker may start on a task while its record is still being
 * synced: its result is published only after the result record is durable, which implies the
 * task's record is too, and a crash before that re-runs the task with no result ever seen.
 * The inbox is bounded by total bytes (a task that would overflow it is refused, never silently
 * dropped) and by age (a task older than {@code maxAge}, or past its own deadline, is finished
 * as FAILED "expired" without running). The journal is rewritten with only the live records
 * when it has grown past {@code max(64 MB, 2 x live bytes)}.
 */
public final class TaskSpool {

    static final long COMPACT_AT = 64L * 1024 * 1024;

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

    /**
     * Spooled; {@code position} tasks are ahead of it. {@code mark} is the journal position that
     * must be durable for the task to survive a power loss ({@link #durable}).
     */
    public record Accepted(long sequence, int position, long mark) implements Admission {}

    /**
     * Seen before: {@code result} is present when it already finished (resend it), empty while it
     * waits or runs. {@code mark}: the journal position of the record that accounts for it (0 when
     * that is already durable, or the result was delivered).
     */
    public record Duplicate(Optional<ResultMessage> result, long mark) implements Admission {}

    /** Refused (e.g. spool full); the caller reports it as a failed result. */
    public record Rejected(String reason) implements Admission {}

    /** A task waiting in the inbox. */
    public record Spooled(long sequence, TaskMessage task, Instant receivedAt, long bytes) {}

    private record Delivery(long sequence, ResultMessage result, byte[] json, long offset) {}

    private record Appended(Admission admission, long offset) {}

    private final Path done;
    private final Limits limits;
    private final Clock clock;
    private final long compactAt;
    private final TreeMap<Long, Spooled> waiting = new TreeMap<>();
    /** The journal record of each waiting task, rewritten as it is when the journal is compacted. */
    private final Map<Long, SpoolJournal.Entry> waitingJson = new java.util.HashMap<>();
    /** The journal position after each waiting task's record (0 once known durable: replayed or compacted). */
    private final Map<Long, Long> waitingMark = new java.util.HashMap<>();
    private final Map<String, Long> waitingByTask = new java.util.HashMap<>();
    private final TreeMap<Long, Delivery> undelivered = new TreeMap<>();
    private final Map<String, Long> undeliveredByTask = new java.util.HashMap<>();
    /**
     * The results this process delivered: done key → {@link #elapsed} at delivery. A device's clock may jump forward
     * (set at last after a day offline, NTP); they are kept until keepDone has really passed since their delivery,
     * whatever the wall clock says ({@link #pruneDone}).
     */
    private final Map<String, Long> deliveredAt = new java.util.HashMap<>();
    /** Monotonic nanoseconds ({@link System#nanoTime}): immune to the wall clock's jumps. */
    private final LongSupplier elapsed;
    private SpoolJournal journal;
    private long nextSequence = 1;
    private long bytes;
    private long resultBytes;

    private TaskSpool(Path dir, Limits limits, Clock clock, long compactAt, LongSupplier elapsed) {
        this.done = dir.resolve("done");
        this.limits = limits;
        this.clock = clock;
        this.compactAt = compactAt;
        this.elapsed = elapsed;
    }

    /** Opens (creating if needed) the spool in {@code dir} and reloads whatever a previous process left. */
    public static TaskSpool open(Path dir, Limits limits, Clock clock) {
        return open(dir, limits, clock, COMPACT_AT);
    }

    static TaskSpool open(Path dir, Limits limits, Clock clock, long compactAt) {
        return open(dir, limits, clock, compactAt, System::nanoTime);
    }

    /** With {@code elapsed} in place of {@link System#nanoTime} (tests: a clock that jumps while time passes). */
    static TaskSpool open(Path dir, Limits limits, Clock clock, LongSupplier elapsed) {
        return open(dir, limits, clock, COMPACT_AT, elapsed);
    }

    private static TaskSpool open(Path dir, Limits limits, Clock clock, long compactAt, LongSupplier elapsed) {
        TaskSpool spool = new TaskSpool(dir, limits, clock, compactAt, elapsed);
        spool.reload(dir);
        return spool;
    }

    /** Spools a task; when it answers Accepted, the task is on disk. */
    public Admission admit(TaskMessage task) {
        return admit(task, Wire.encode(task));
    }

    /**
     * Spools a task whose message arrived as {@code raw} (kept as it came: no second encoding of a
     * large tensor); when it answers, the record that accounts for the task is on disk.
     */
    public Admission admit(TaskMessage task, byte[] raw) {
        Appended a = append(task, raw);
        journal.awaitDurable(a.offset());
        return a.admission();
    }

    /**
     * Spools a task without waiting for the disk: the record is written (a process crash keeps it,
     * the page cache has it) but survives a power loss only once {@link #durable} says so for the
     * admission's mark — after {@link #sync} or any later sync.
     */
    public Admission admitBuffered(TaskMessage task, byte[] raw) {
        return append(task, raw).admission();
    }

    private synchronized Appended append(TaskMessage task, byte[] raw) {
        Long waitingSeq = waitingByTask.get(task.taskId());
        if (waitingSeq != null) {
            long mark = waitingMark.get(waitingSeq);
            return new Appended(new Duplicate(Optional.empty(), mark), mark);
        }
        Long pendingResult = undeliveredByTask.get(task.taskId());
        if (pendingResult != null) {
            Delivery d = undelivered.get(pendingResult);
            return new Appended(new Duplicate(Optional.of(d.result()), d.offset()), d.offset());
        }
        Path finished = done.resolve(key(task.taskId()) + ".json");
        if (Files.exists(finished)) {
            return new Appended(new Duplicate(Optional.of(Wire.decode(read(finished), ResultMessage.class)), 0), 0);
        }
        byte[] json = raw;
        if (bytes + json.length > limits.maxBytes()) {
            return new Appended(new Rejected("spool full: " + bytes + " of " + limits.maxBytes() + " bytes in use"), 0);
        }
        long seq = nextSequence++;
        Instant now = clock.instant();
        SpoolJournal.Entry entry = new SpoolJournal.Entry(SpoolJournal.TASK, seq, now.toEpochMilli(), json);
        long offset = journal.append(entry);
        waiting.put(seq, new Spooled(seq, task, now, json.length));
        waitingJson.put(seq, entry);
        waitingMark.put(seq, offset);
        waitingByTask.put(task.taskId(), seq);
        bytes += json.length;
        notifyAll();
        return new Appended(new Accepted(seq, waiting.size() - 1, offset), offset);
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

    /** Records the result of a waiting task in one record; returns once it is on disk. */
    public void finish(String taskId, ResultMessage result) {
        journal.awaitDurable(finishBuffered(taskId, result));
    }

    /**
     * Records the result of a waiting task without waiting for the disk; returns its mark (see
     * {@link #durable}), 0 when the task was not waiting. {@link #undelivered} lists the result
     * only once it is durable.
     */
    public synchronized long finishBuffered(String taskId, ResultMessage result) {
        Long seq = waitingByTask.remove(taskId);
        if (seq == null) {
            return 0;
        }
        Spooled s = waiting.remove(seq);
        waitingJson.remove(seq);
        waitingMark.remove(seq);
        byte[] json = Wire.encode(result);
        long outSeq = nextSequence++;
        long offset = journal.append(new SpoolJournal.Entry(SpoolJournal.RESULT, seq, outSeq, json));
        bytes -= s.bytes();
        resultBytes += json.length;
        undelivered.put(outSeq, new Delivery(outSeq, result, json, offset));
        undeliveredByTask.put(taskId, outSeq);
        return offset;
    }

    /** True when everything up to {@code mark} is on disk (always for 0). */
    public boolean durable(long mark) {
        return journal.durable(mark);
    }

    /** Makes every record written so far durable (one group commit). */
    public void sync() {
        journal.awaitDurable(journal.end());
    }

    /** Results on disk still to deliver, oldest first. */
    public synchronized List<ResultMessage> undelivered() {
        return undelivered.values().stream().filter(d -> journal.durable(d.offset())).map(Delivery::result).toList();
    }

    /** The broker has the result: keep it only as the answer to a repeated task id. */
    public synchronized void delivered(String taskId) {
        Long seq = undeliveredByTask.remove(taskId);
        if (seq == null) {
            return;
        }
        Delivery d = undelivered.remove(seq);
        resultBytes -= d.json().length;
        // neither is synced: losing them in a crash only means the result is published once more
        // (the cloud ignores a repeat), or a much later repeat of the task id runs again
        writeDone(done.resolve(key(taskId) + ".json"), d.json(), clock.instant());
        deliveredAt.put(key(taskId), elapsed.getAsLong());
        journal.append(new SpoolJournal.Entry(SpoolJournal.DELIVERED, seq, 0, new byte[0]));
        if (journal.size() > Math.max(compactAt, 2 * (bytes + resultBytes))) {
            compact();
        }
    }

    public synchronized int queued() {
        return waiting.size();
    }

    public synchronized long bytesInUse() {
        return bytes;
    }

    /**
     * Forgets delivered results delivered more than keepDone ago; returns how many. Aged by delivery: by the
     * delivery time the spool's clock gave the file, and, for what this process delivered, by the time that has
     * really passed since — so a forward jump of the clock does not forget a result just delivered, whose task a
     * cloud that missed it may still repeat. (What an earlier process delivered is aged by the clock alone.)
     */
    public synchronized int pruneDone() {
        Instant cutoff = clock.instant().minus(limits.keepDone());
        long now = elapsed.getAsLong();
        int removed = 0;
        try (Stream<Path> files = Files.list(done)) {
            for (Path p : files.toList()) {
                String key = p.getFileName().toString().replaceFirst("\\.json$", "");
                Long deliveredHere = deliveredAt.get(key);
                boolean keptLongEnough = deliveredHere == null || now - deliveredHere >= limits.keepDone().toNanos();
                if (keptLongEnough && Files.getLastModifiedTime(p).toInstant().isBefore(cutoff)) {
                    delete(p);
                    deliveredAt.remove(key);
                    removed++;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return removed;
    }

    /** An inbox file of the one-file-per-entry spool (read once, when it is moved into the journal). */
    private record StoredTask(
            @com.fasterxml.jackson.annotation.JsonProperty("task") TaskMessage task,
            @com.fasterxml.jackson.annotation.JsonProperty("received_at") String receivedAt) {}

    private void compact() {
        List<SpoolJournal.Entry> live = new ArrayList<>();
        for (Spooled s : waiting.values()) {
            live.add(waitingJson.get(s.sequence()));
        }
        for (Delivery d : undelivered.values()) {
            live.add(new SpoolJournal.Entry(SpoolJournal.RESULT, 0, d.sequence(), d.json()));
        }
        journal.rewrite(live);
        // every kept record is durable now
        undelivered.replaceAll((seq, d) -> new Delivery(seq, d.result(), d.json(), 0));
        waitingMark.replaceAll((seq, mark) -> 0L);
    }

    private void reload(Path dir) {
        try {
            Files.createDirectories(done);
            journal = SpoolJournal.open(dir.resolve("journal.log"), limits.fsync(), this::replay);
            importFileSpool(dir);
            try (Stream<Path> tmp = Files.list(dir)) {
                tmp.filter(p -> p.getFileName().toString().endsWith(".tmp")).forEach(TaskSpool::delete);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void replay(SpoolJournal.Entry e) {
        switch (e.type()) {
            case SpoolJournal.TASK -> {
                nextSequence = Math.max(nextSequence, e.a() + 1);
                TaskMessage task = Wire.decode(e.payload(), TaskMessage.class);
                waiting.put(e.a(), new Spooled(e.a(), task, Instant.ofEpochMilli(e.b()), e.payload().length));
                waitingJson.put(e.a(), e);
                waitingMark.put(e.a(), 0L);
                waitingByTask.put(task.taskId(), e.a());
                bytes += e.payload().length;
            }
            case SpoolJournal.RESULT -> {
                nextSequence = Math.max(nextSequence, e.b() + 1);
                ResultMessage result = Wire.decode(e.payload(), ResultMessage.class);
                Long taskSeq = waitingByTask.remove(result.taskId());
                if (taskSeq != null) {
                    bytes -= waiting.remove(taskSeq).bytes();
                    waitingJson.remove(taskSeq);
                    waitingMark.remove(taskSeq);
                }
                undelivered.put(e.b(), new Delivery(e.b(), result, e.payload(), 0));
                undeliveredByTask.put(result.taskId(), e.b());
                resultBytes += e.payload().length;
            }
            case SpoolJournal.DELIVERED -> {
                Delivery d = undelivered.remove(e.a());
                if (d != null) {
                    undeliveredByTask.remove(d.result().taskId());
                    resultBytes -= d.json().length;
                }
            }
            default -> throw new IllegalStateException("unknown spool record type " + e.type());
        }
    }

    /** A spool written by an earlier version (one file per entry in inbox/ and outbox/) moves into the journal. */
    private void importFileSpool(Path dir) throws IOException {
        for (String sub : List.of("inbox", "outbox")) {
            Path old = dir.resolve(sub);
            if (!Files.isDirectory(old)) {
                continue;
            }
            List<Path> files;
            try (Stream<Path> list = Files.list(old)) {
                files = list.filter(p -> p.toString().endsWith(".json")).sorted().toList();
            }
            for (Path p : files) {
                byte[] json = read(p);
                long seq = nextSequence++;
                SpoolJournal.Entry entry;
                if (sub.equals("inbox")) {
                    StoredTask stored = Wire.decode(json, StoredTask.class);
                    entry = new SpoolJournal.Entry(SpoolJournal.TASK, seq, Instant.parse(stored.receivedAt()).toEpochMilli(),
                            Wire.encode(stored.task()));
                } else {
                    entry = new SpoolJournal.Entry(SpoolJournal.RESULT, 0, seq, json);
                }
                replay(entry);
                journal.awaitDurable(journal.append(entry));
            }
            try (Stream<Path> rest = Files.list(old)) {
                rest.forEach(TaskSpool::delete);
            }
            delete(old);
        }
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

    private static void writeDone(Path target, byte[] content, Instant deliveredAt) {
        Path tmp = target.getParent().getParent().resolve(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + target, e);
        }
        try {
            Files.setLastModifiedTime(tmp, FileTime.from(deliveredAt)); // the spool's clock, not the file system's
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
