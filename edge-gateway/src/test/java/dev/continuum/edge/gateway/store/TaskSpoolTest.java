package dev.continuum.edge.gateway.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.protocol.Tensor;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TaskSpoolTest {

    @TempDir
    Path dir;

    private final MutableClock clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    private final TaskSpool.Limits limits = TaskSpool.Limits.defaults().withFsync(false);

    private static TaskMessage task(String id) {
        return new TaskMessage(id, "cls", Tensor.of(new long[] {1, 2}, new float[] {1, 2}), null, null, null);
    }

    private static ResultMessage ok(String id) {
        return new ResultMessage(id, "gw", null, ResultMessage.SUCCEEDED, Tensor.of(new long[] {1}, new float[] {7}),
                null, null, 1, 0, 0);
    }

    @Test
    void shouldHandTasksOutInArrivalOrder() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock);
        spool.admit(task("b"));
        spool.admit(task("a"));
        spool.admit(task("c"));

        assertThat(spool.head(10)).extracting(s -> s.task().taskId()).containsExactly("b", "a", "c");
    }

    @Test
    void shouldKeepWaitingTasksAndUndeliveredResultsAcrossRestart() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock);
        spool.admit(task("t1"));
        spool.admit(task("t2"));
        spool.admit(task("t3"));
        spool.finish("t1", ok("t1"));

        TaskSpool reopened = TaskSpool.open(dir, limits, clock);

        assertThat(reopened.head(10)).extracting(s -> s.task().taskId()).containsExactly("t2", "t3");
        assertThat(reopened.undelivered()).extracting(ResultMessage::taskId).containsExactly("t1");
        reopened.admit(task("t4"));
        assertThat(reopened.head(10)).extracting(s -> s.task().taskId()).containsExactly("t2", "t3", "t4");
    }

    @Test
    void shouldKeepTasksAndResultsThatCameAsBinaryFramesAcrossARestart() {
        TaskMessage framed = new TaskMessage("f1", "cls", Tensor.framed(new long[] {1, 3}, new float[] {1.5f, -2f, 3e-7f}),
                null, null, null);
        TaskSpool spool = TaskSpool.open(dir, limits, clock);
        spool.admit(framed, Wire.encode(framed));
        spool.admit(task("f2"));
        spool.finish("f2", new ResultMessage("f2", "gw", null, ResultMessage.SUCCEEDED,
                Tensor.framed(new long[] {1}, new float[] {7}), null, null, 1, 0, 0));

        TaskSpool reopened = TaskSpool.open(dir, limits, clock);

        assertThat(reopened.head(10)).singleElement().satisfies(t -> {
            assertThat(t.task().taskId()).isEqualTo("f1");
            assertThat(t.task().input().values()).containsExactly(1.5f, -2f, 3e-7f);
        });
        assertThat(reopened.undelivered()).singleElement().satisfies(r -> assertThat(r.output().values()).containsExactly(7f));
    }

    @Test
    void shouldCountABufferedTaskAsDurableOnlyAfterASync() {
        TaskSpool spool = TaskSpool.open(dir, limits.withFsync(true), clock);
        TaskSpool.Accepted first = (TaskSpool.Accepted) spool.admitBuffered(task("t1"), Wire.encode(task("t1")));
        assertThat(spool.durable(first.mark())).isFalse();
        assertThat(spool.admitBuffered(task("t1"), Wire.encode(task("t1")))).isInstanceOfSatisfying(
                TaskSpool.Duplicate.class, d -> assertThat(d.mark()).isEqualTo(first.mark()));

        spool.sync();

        assertThat(spool.durable(first.mark())).isTrue();
    }

    @Test
    void shouldListABufferedResultForRedeliveryOnlyOnceItIsDurable() {
        TaskSpool spool = TaskSpool.open(dir, limits.withFsync(true), clock);
        spool.admitBuffered(task("t1"), Wire.encode(task("t1")));
        long mark = spool.finishBuffered("t1", ok("t1"));
        assertThat(spool.undelivered()).isEmpty();

        spool.sync();

        assertThat(spool.durable(mark)).isTrue();
        assertThat(spool.undelivered()).extracting(ResultMessage::taskId).containsExactly("t1");
    }

    @Test
    void shouldTreatWhatACrashedProcessWroteAsDurableAfterReopen() {
        TaskSpool crashed = TaskSpool.open(dir, limits.withFsync(true), clock);
        crashed.admitBuffered(task("t1"), Wire.encode(task("t1")));

        TaskSpool reopened = TaskSpool.open(dir, limits.withFsync(true), clock);

        assertThat(reopened.admitBuffered(task("t1"), Wire.encode(task("t1")))).isInstanceOfSatisfying(
                TaskSpool.Duplicate.class, d -> assertThat(reopened.durable(d.mark())).isTrue());
    }

    @Test
    void shouldTreatRepeatedTaskIdAsDuplicateAtEveryStage() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock);
        spool.admit(task("t1"));
        assertThat(spool.admit(task("t1"))).isInstanceOfSatisfying(TaskSpool.Duplicate.class,
                d -> assertThat(d.result()).isEmpty());

        spool.finish("t1", ok("t1"));
        assertThat(spool.admit(task("t1"))).isInstanceOfSatisfying(TaskSpool.Duplicate.class,
                d -> assertThat(d.result()).isPresent());

        spool.delivered("t1");
        TaskSpool reopened = TaskSpool.open(dir, limits, clock);
        assertThat(reopened.admit(task("t1"))).isInstanceOfSatisfying(TaskSpool.Duplicate.class,
                d -> assertThat(d.result().orElseThrow().output().values()).containsExactly(7f));
        assertThat(reopened.queued()).isZero();
    }

    @Test
    void shouldRefuseTasksBeyondItsSizeBound() {
        TaskSpool spool = TaskSpool.open(dir, limits.withMaxBytes(200), clock);

        List<TaskSpool.Admission> admissions = List.of(spool.admit(task("t1")), spool.admit(task("t2")),
                spool.admit(task("t3")), spool.admit(task("t4")));

        assertThat(admissions).hasAtLeastOneElementOfType(TaskSpool.Rejected.class);
        assertThat(spool.bytesInUse()).isLessThanOrEqualTo(200);
        assertThat(admissions.get(0)).isInstanceOf(TaskSpool.Accepted.class);
    }

    @Test
    void shouldMarkTasksExpiredByDeadlineOrAge() {
        TaskSpool spool = TaskSpool.open(dir, limits.withMaxAge(Duration.ofMinutes(10)), clock);
        spool.admit(new TaskMessage("deadline", "cls", null, null, "2030-01-01T00:01:00Z", null));
        spool.admit(task("aged"));

        clock.advance(Duration.ofMinutes(2));
        assertThat(spool.head(2)).extracting(spool::expired).containsExactly(true, false);
        clock.advance(Duration.ofMinutes(10));
        assertThat(spool.head(2)).extracting(spool::expired).containsExactly(true, true);
    }

    @Test
    void shouldNameFilesSafelyForAnyTaskId() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock);
        spool.admit(task("../../etc/passwd"));
        spool.admit(task("run-1/state-A/1"));

        assertThat(TaskSpool.open(dir, limits, clock).head(5)).extracting(s -> s.task().taskId())
                .containsExactly("../../etc/passwd", "run-1/state-A/1");
        assertThat(dir.getParent().resolve("etc")).doesNotExist();
    }

    @Test
    void shouldKeepWaitingTasksAndUndeliveredResultsWhenTheJournalIsCompacted() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock, 1); // compact at every delivery
        for (int i = 0; i < 6; i++) {
            spool.admit(task("t" + i));
        }
        spool.finish("t0", ok("t0"));
        spool.finish("t1", ok("t1"));
        spool.finish("t2", ok("t2"));
        spool.delivered("t0");
        spool.delivered("t2");

        TaskSpool reopened = TaskSpool.open(dir, limits, clock);

        assertThat(reopened.head(10)).extracting(s -> s.task().taskId()).containsExactly("t3", "t4", "t5");
        assertThat(reopened.undelivered()).extracting(ResultMessage::taskId).containsExactly("t1");
        assertThat(reopened.admit(task("t2"))).isInstanceOfSatisfying(TaskSpool.Duplicate.class,
                d -> assertThat(d.result()).isPresent());
    }

    @Test
    void shouldKeepEverythingBeforeARecordTornByACrash() throws Exception {
        TaskSpool spool = TaskSpool.open(dir, limits, clock);
        spool.admit(task("t1"));
        spool.admit(task("t2"));
        Path journal = dir.resolve("journal.log");
        long intact = java.nio.file.Files.size(journal);
        spool.admit(task("t3"));
        try (var ch = java.nio.channels.FileChannel.open(journal, java.nio.file.StandardOpenOption.WRITE)) {
            ch.truncate(intact + 20); // the crash hit while t3's record was being written
        }

        TaskSpool reopened = TaskSpool.open(dir, limits, clock);

        assertThat(reopened.head(10)).extracting(s -> s.task().taskId()).containsExactly("t1", "t2");
        reopened.admit(task("t4"));
        assertThat(TaskSpool.open(dir, limits, clock).head(10)).extracting(s -> s.task().taskId())
                .containsExactly("t1", "t2", "t4");
    }

    @Test
    void shouldMoveASpoolWrittenOneFilePerEntryIntoTheJournal() throws Exception {
        java.nio.file.Path inbox = java.nio.file.Files.createDirectories(dir.resolve("inbox"));
        java.nio.file.Path outbox = java.nio.file.Files.createDirectories(dir.resolve("outbox"));
        java.nio.file.Files.write(inbox.resolve("00000000000000000001-old.json"), dev.continuum.edge.protocol.Wire.encode(
                java.util.Map.of("task", task("old"), "received_at", "2030-01-01T00:00:00Z")));
        java.nio.file.Files.write(outbox.resolve("00000000000000000002-older.json"), dev.continuum.edge.protocol.Wire.encode(ok("older")));

        TaskSpool spool = TaskSpool.open(dir, limits, clock);

        assertThat(spool.head(5)).extracting(s -> s.task().taskId()).containsExactly("old");
        assertThat(spool.undelivered()).extracting(ResultMessage::taskId).containsExactly("older");
        assertThat(inbox).doesNotExist();
        assertThat(TaskSpool.open(dir, limits, clock).head(5)).extracting(s -> s.task().taskId()).containsExactly("old");
    }

    /** A task admitted, run and its result delivered: only the answer to a repeat of its id remains. */
    private static void deliver(TaskSpool spool, String taskId) {
        spool.admit(task(taskId));
        spool.finish(taskId, ok(taskId));
        spool.delivered(taskId);
    }

    @Test
    void shouldForgetDeliveredResultsAfterTheirKeepTimeSoTheDoneListStaysBounded() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock, clock::elapsedNanos);
        deliver(spool, "t1");
        assertThat(spool.pruneDone()).as("kept within keepDone").isZero();

        clock.advance(limits.keepDone().plusHours(1));

        assertThat(spool.pruneDone()).isEqualTo(1);
        assertThat(spool.admit(task("t1"))).as("past the dedup window the id is new again")
                .isInstanceOf(TaskSpool.Accepted.class);
    }

    @Test
    void shouldKeepAJustDeliveredResultWhenTheClockJumpsForwardPastItsKeepTime() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock, clock::elapsedNanos);
        deliver(spool, "t1");

        clock.jump(limits.keepDone().multipliedBy(2)); // the device's clock set right after a long time offline

        assertThat(spool.pruneDone()).as("delivered a moment ago, whatever the clock says").isZero();
        assertThat(spool.admit(task("t1"))).as("a repeat of the task is answered, not run again")
                .isInstanceOfSatisfying(TaskSpool.Duplicate.class,
                        d -> assertThat(d.result()).map(ResultMessage::taskId).contains("t1"));

        clock.advance(limits.keepDone());

        assertThat(spool.pruneDone()).as("forgotten once keepDone has really passed").isEqualTo(1);
    }

    @Test
    void shouldAgeDeliveredResultsByTheSpoolsClockNotTheFileSystemsAcrossARestart() {
        TaskSpool spool = TaskSpool.open(dir, limits, clock); // 2030: years ahead of the file system's clock
        deliver(spool, "t1");
        TaskSpool reopened = TaskSpool.open(dir, limits, clock);

        assertThat(reopened.pruneDone()).as("delivered just now on the spool's clock").isZero();
        clock.advance(limits.keepDone().plusHours(1));
        assertThat(reopened.pruneDone()).isEqualTo(1);
    }

    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant start) { this.now = start; }

        private long elapsedNanos;

        /** Time passes: the wall clock and the monotonic one move together. */
        void advance(Duration d) { now = now.plus(d); elapsedNanos += d.toNanos(); }

        /** The wall clock is set, no time passes. */
        void jump(Duration d) { now = now.plus(d); }

        long elapsedNanos() { return elapsedNanos; }

        @Override public ZoneOffset getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now; }
    }
}
