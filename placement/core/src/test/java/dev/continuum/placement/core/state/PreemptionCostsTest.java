package dev.continuum.placement.core.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What stopping and moving a job costs in the simulator: lost progress on checkpoint, no progress while
 * restoring or migrating, and the GPU time charged for it. Costs are 30 s checkpoint, 60 s restore, 90 s
 * migration ({@link PreemptionCosts#DEFAULT}) unless a test says otherwise.
 */
class PreemptionCostsTest {
    private static final Cluster ONE_NODE = Cluster.of("one",
            List.of(new NodeSpec("n0", "r0", 4, "V100", 32_768, 64_000, 262_144)));

    private static Workload workload(PreemptionCosts costs) {
        return new Workload(new ClusterState(ONE_NODE), (job, now) -> job.job().arrival(), costs, false);
    }

    private static Placement onGpus(int... gpus) {
        return Placement.of(new Slice(0, gpus, 1000, 0, 0));
    }

    /** A 100 s, 2-GPU job, running on GPUs 0 and 1 since 0. */
    private static ActiveJob runningSinceZero(Workload w) {
        ActiveJob a = w.arrive(Job.simple("a", 0, 2, 100), 0);
        w.session(0).start(a, onGpus(0, 1), 1.0);
        return a;
    }

    /** The job of {@link #runningSinceZero}, preempted at 50 and started again at {@code restartAt}. */
    private static ActiveJob preemptedAndRestarted(Workload w, double restartAt) {
        ActiveJob a = runningSinceZero(w);
        w.session(50).preempt(a, Decision.Reason.PRIORITY);
        w.session(restartAt).start(a, onGpus(2, 3), 1.0);
        return a;
    }

    @Test
    void shouldLoseTheCheckpointIntervalOfWorkWhenPreempted() {
        Workload w = workload(PreemptionCosts.DEFAULT);
        ActiveJob a = runningSinceZero(w);

        w.session(50).preempt(a, Decision.Reason.PRIORITY);

        assertThat(a.remainingAt(50)).isCloseTo(80, within(1e-9));
        assertThat(w.lostGpuSeconds()).isCloseTo(30 * 2, within(1e-9));
        assertThat(a.preemptions()).isEqualTo(1);
    }

    @Test
    void shouldNeverLeaveMoreWorkThanTheWholeJobWhenPreemptedEarly() {
        Workload w = workload(PreemptionCosts.DEFAULT);
        ActiveJob a = runningSinceZero(w);

        w.session(10).preempt(a, Decision.Reason.PRIORITY);

        assertThat(a.remainingAt(10)).isCloseTo(100, within(1e-9));
    }

    @Test
    void shouldMakeNoProgressWhileRestoringAfterARestart() {
        Workload w = workload(PreemptionCosts.DEFAULT);

        ActiveJob a = preemptedAndRestarted(w, 70);

        assertThat(a.remainingAt(100)).isCloseTo(80, within(1e-9));
        assertThat(a.expectedFinish()).isCloseTo(70 + 60 + 80, within(1e-9));
        assertThat(w.lostGpuSeconds()).isCloseTo((30 + 60) * 2, within(1e-9));
    }

    @Test
    void shouldChargeNoRestoreOnAJobsFirstStart() {
        Workload w = workload(PreemptionCosts.DEFAULT);
        ActiveJob a = w.arrive(Job.simple("a", 0, 2, 100), 0);

        w.session(5).start(a, onGpus(0, 1), 1.0);

        assertThat(a.expectedFinish()).isCloseTo(105, within(1e-9));
        assertThat(w.lostGpuSeconds()).isZero();
    }

    @Test
    void shouldPauseAMigratedJobForTheMigrationTimeAndFreeItsOldGpus() {
        Workload w = workload(PreemptionCosts.DEFAULT);
        ActiveJob a = runningSinceZero(w);
        Workload.Session s = w.session(40);

        s.migrate(a, onGpus(2, 3));

        assertThat(a.expectedFinish()).isCloseTo(40 + 90 + 60, within(1e-9));
        assertThat(s.decisions()).containsExactly(new Decision.Migrate("a", onGpus(0, 1), onGpus(2, 3)));
        assertThat(w.migrations()).isEqualTo(1);
        assertThat(w.lostGpuSeconds()).isCloseTo(90 * 2, within(1e-9));
        assertThat(w.state().freeGpuMilli(0, 0)).isEqualTo(1000);
        assertThat(w.state().freeGpuMilli(0, 3)).isZero();
    }

    @Test
    void shouldFinishAPreemptedJobLaterTheCostlierPreemptionIs() {
        double free = preemptedAndRestarted(workload(PreemptionCosts.FREE), 50).expectedFinish();
        double standard = preemptedAndRestarted(workload(PreemptionCosts.DEFAULT), 50).expectedFinish();
        double costlier = preemptedAndRestarted(workload(new PreemptionCosts(45, 90, 135)), 50).expectedFinish();

        assertThat(free).isCloseTo(100, within(1e-9));
        assertThat(standard).isCloseTo(50 + 60 + 80, within(1e-9));
        assertThat(costlier).isCloseTo(50 + 90 + 95, within(1e-9));
    }

    @Test
    void shouldRejectNegativeCosts() {
        assertThatThrownBy(() -> new PreemptionCosts(-1, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PreemptionCosts(0, -1, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PreemptionCosts(0, 0, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
