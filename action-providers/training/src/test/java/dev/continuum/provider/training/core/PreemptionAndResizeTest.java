package dev.continuum.provider.training.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.Progress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Preemption, resize, cancel and grace-period kills with the real planner deciding, the real local
 * backend running the demo trainer as child processes, and real signals.
 */
class PreemptionAndResizeTest {
    private static final Duration WAIT = Duration.ofSeconds(60);
    @TempDir
    Path dir;
    LocalCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = new LocalCluster(dir, 2);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void aHigherPriorityJobTakesTheGpusAndThePreemptedOneFinishesFromItsCheckpoint() throws Exception {
        cluster.submit("low", cluster.request(2, 2, 0, false, Duration.ofSeconds(20),
                "--steps", "200", "--step-millis", "15", "--checkpoint-every", "1000"));
        cluster.await("low", j -> j.state() == JobState.RUNNING && j.step() >= 20, WAIT);

        cluster.submit("high", cluster.request(2, 2, 10, false, Duration.ofSeconds(20), "--steps", "30"));

        TrainingJob preempted = cluster.await("low", j -> j.state() == JobState.PREEMPTED, WAIT);
        assertThat(preempted.history()).extracting(Move::kind).containsExactly(Move.Kind.PREEMPTED);
        assertThat(cluster.await("high", j -> j.state().finished(), WAIT).state()).isEqualTo(JobState.SUCCEEDED);
        TrainingJob low = cluster.await("low", j -> j.state().finished(), WAIT);

        assertThat(low.state()).isEqualTo(JobState.SUCCEEDED);
        assertThat(low.attempt()).isEqualTo(2);
        List<Progress> before = cluster.progress("low", 1);
        List<Progress> after = cluster.progress("low", 2);
        long checkpointed = before.getLast().step();
        assertThat(cluster.log("low", 2)).contains("resumed from " + Checkpoints.name(checkpointed));
        // no step repeated beyond the checkpoint, none skipped, and the loss goes on from where it was
        assertThat(after.getFirst().step()).isEqualTo(checkpointed + 1);
        assertThat(after.getLast().step()).isEqualTo(200);
        assertThat(after.getFirst().loss().orElseThrow()).isLessThanOrEqualTo(before.getLast().loss().orElseThrow())
                .isLessThan(before.getFirst().loss().orElseThrow() * 0.9);
    }

    /** Nobody asks here: the planner's elastic policy shrinks the job for a newcomer and grows it once that has gone. */
    @Test
    void theElasticPolicyShrinksAJobForAWaitingOneAndGrowsItBackWhenThatFinishes() throws Exception {
        cluster.close();
        cluster = new LocalCluster(dir.resolve("elastic-policy"), 2, "priority+elastic");
        cluster.submit("elastic", cluster.request(1, 2, 0, true, Duration.ofSeconds(20),
                "--steps", "400", "--step-millis", "20", "--checkpoint-every", "1000"));
        TrainingJob wide = cluster.await("elastic", j -> j.state() == JobState.RUNNING
                && j.placement().map(Placement::gpus).orElse(0) == 2 && cluster.reported("elastic", j.attempt()), WAIT);
        int wideAttempt = wide.attempt();

        cluster.submit("other", cluster.request(1, 1, 0, false, Duration.ofSeconds(20), "--steps", "60", "--step-millis", "20"));
        TrainingJob narrow = cluster.await("elastic", j -> j.state() == JobState.RUNNING
                && j.placement().map(Placement::gpus).orElse(0) == 1 && j.attempt() > wideAttempt, WAIT);
        assertThat(cluster.await("other", j -> j.state().finished(), WAIT).state()).isEqualTo(JobState.SUCCEEDED);
        TrainingJob done = cluster.await("elastic", j -> j.state().finished(), Duration.ofSeconds(120));

        assertThat(done.state()).as(done.toString()).isEqualTo(JobState.SUCCEEDED);
        assertThat(done.history()).allSatisfy(m -> assertThat(m.kind()).isEqualTo(Move.Kind.RESIZED))
                .extracting(m -> m.from().gpus() + "->" + m.to().orElseThrow().gpus()).containsSubsequence("2->1", "1->2");
        assertThat(done.history()).allSatisfy(m -> assertThat(m.reason()).contains("elastic"));
        assertThat(done.placement().map(Placement::gpus)).contains(2);
        assertThat(cluster.log("elastic", narrow.attempt())).contains("training with world size 1");
        assertThat(cluster.log("elastic", done.attempt())).contains("training with world size 2");
        // each run after the shrink starts at the step after its checkpoint
        List<Progress> shrunk = cluster.progress("elastic", narrow.attempt());
        List<Progress> before = cluster.progress("elastic", narrow.attempt() - 1);
        assertThat(shrunk.getFirst().step()).isEqualTo(before.getLast().step() + 1);
        assertThat(cluster.progress("elastic", done.attempt()).getLast().step()).isEqualTo(400);
    }

    @Test
    void anElasticJobShrinksToOneGpuAndGrowsBackResumingWithTheNewWorldSize() throws Exception {
        cluster.submit("elastic", cluster.request(1, 2, 0, true, Duration.ofSeconds(20),
                "--steps", "150", "--step-millis", "15"));
        cluster.await("elastic", j -> j.state() == JobState.RUNNING && j.step() >= 10, WAIT);
        assertThat(cluster.job("elastic").placement().map(Placement::gpus)).contains(2);

        cluster.scheduler.resize("elastic", 1, "operator");
        cluster.await("elastic", j -> j.attempt() == 2 && j.state() == JobState.RUNNING
                && cluster.reported("elastic", 2), WAIT);
        long stepAfterShrink = cluster.job("elastic").step();
        cluster.scheduler.resize("elastic", 2, "operator");
        TrainingJob done = cluster.await("elastic", j -> j.state().finished(), WAIT);

        assertThat(done.state()).as(done.toString()).isEqualTo(JobState.SUCCEEDED);
        assertThat(done.attempt()).isEqualTo(3);
        assertThat(done.history()).extracting(Move::kind).containsExactly(Move.Kind.RESIZED, Move.Kind.RESIZED);
        assertThat(done.history()).extracting(m -> m.from().gpus() + "->" + m.to().orElseThrow().gpus())
                .containsExactly("2->1", "1->2");
        assertThat(cluster.log("elastic", 2)).contains("world size 1").contains("CUDA_VISIBLE_DEVICES=0");
        assertThat(cluster.log("elastic", 3)).contains("world size 2");
        assertThat(stepAfterShrink).isGreaterThan(cluster.progress("elastic", 1).getLast().step());
        assertThat(cluster.progress("elastic", 3).getFirst().step())
                .isEqualTo(cluster.progress("elastic", 2).getLast().step() + 1);
    }

    @Test
    void aJobCancelledWhileItCheckpointsStaysCancelledAndItsProcessesEnd() throws Exception {
        cluster.submit("c", cluster.request(1, 1, 0, false, Duration.ofSeconds(5),
                "--steps", "1000", "--step-millis", "20"));
        cluster.await("c", j -> j.state() == JobState.RUNNING && j.step() >= 5, WAIT);

        cluster.scheduler.preempt("c", "operator");
        assertThat(cluster.job("c").state()).isEqualTo(JobState.CHECKPOINTING);
        cluster.scheduler.cancel("c");

        assertThat(cluster.job("c").state()).isEqualTo(JobState.CANCELLED);
        long pid = Long.parseLong(java.nio.file.Files.readString(dir.resolve("jobs/c/attempt-1.pids")).strip());
        await("the cancelled job's process " + pid + " to end").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(50)).pollInSameThread()
                .until(() -> {
                    cluster.scheduler.poll();
                    return !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
                });
        await("the cancelled job stays CANCELLED over the scheduler's next polls").during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).pollInSameThread()
                .until(() -> {
                    cluster.scheduler.poll();
                    return cluster.job("c").state();
                }, org.hamcrest.Matchers.equalTo(JobState.CANCELLED));
        assertThat(cluster.job("c").attempt()).isEqualTo(1);
    }

    @Test
    void aScriptIgnoringTheSignalIsKilledAfterTheGracePeriodAndRestartsFromItsLastPeriodicCheckpoint() throws Exception {
        cluster.submit("deaf", cluster.request(1, 1, 0, false, Duration.ofSeconds(1),
                "--steps", "120", "--step-millis", "15", "--checkpoint-every", "20", "--ignore-signals"));
        cluster.await("deaf", j -> j.state() == JobState.RUNNING && j.step() >= 50, WAIT);

        long asked = System.nanoTime();
        cluster.scheduler.preempt("deaf", "operator");
        TrainingJob back = cluster.await("deaf", j -> j.attempt() == 2, WAIT);
        double stoppedAfter = (System.nanoTime() - asked) / 1e9;
        TrainingJob done = cluster.await("deaf", j -> j.state().finished(), WAIT);

        assertThat(stoppedAfter).isBetween(0.9, 5.0);
        assertThat(cluster.log("deaf", 1)).contains("ignoring SIGUSR1");
        long lastPrinted = cluster.progress("deaf", 1).getLast().step();
        long lastPeriodic = lastPrinted / 20 * 20;
        assertThat(cluster.log("deaf", 2)).contains("resumed from " + Checkpoints.name(lastPeriodic));
        assertThat(cluster.progress("deaf", 2).getFirst().step()).isEqualTo(lastPeriodic + 1);
        assertThat(back.history()).extracting(Move::kind).containsExactly(Move.Kind.PREEMPTED);
        assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    }
}
