package dev.continuum.placement.core.state;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WorkloadTest {
    private static final Cluster ONE_NODE = Cluster.of("one",
            List.of(new NodeSpec("n0", "r0", 4, "V100", 32_768, 64_000, 256_000)));

    /** Queue in arrival order (FIFO). */
    private static Workload fifo() {
        return new Workload(new ClusterState(ONE_NODE), (job, now) -> job.job().arrival(), PreemptionCosts.FREE, false);
    }

    private static Slice gpus(int... gpus) {
        return new Slice(0, gpus, 1000, 0, 0);
    }

    private static List<String> ids(List<ActiveJob> jobs) {
        return jobs.stream().map(a -> a.job().id()).toList();
    }

    @Test
    void shouldListTheWaitingJobsAfterOneThatHasStartedMeanwhile() {
        Workload w = fifo();
        ActiveJob a = w.arrive(Job.simple("a", 0, 1, 10), 0);
        w.arrive(Job.simple("b", 1, 1, 10), 1);
        w.arrive(Job.simple("c", 2, 1, 10), 2);
        Workload.Session s = w.session(2);
        s.start(a, Placement.of(gpus(0)), 1.0);

        assertThat(ids(s.waitingAfter(a, 10))).containsExactly("b", "c");
        assertThat(ids(s.waitingAfter(a, 1))).containsExactly("b");
    }

    @Test
    void shouldListTheSameJobsAfterAsTheDefaultDefinitionDoes() {
        Workload w = fifo();
        ActiveJob first = w.arrive(Job.simple("a", 0, 1, 10), 0);
        w.arrive(Job.simple("b", 0, 1, 10), 0);
        w.arrive(Job.simple("c", 5, 1, 10), 5);
        Workload.Session s = w.session(5);
        SchedulingContext viaDefault = new DelegatingContext(s);

        assertThat(ids(viaDefault.waitingAfter(first, 10))).isEqualTo(ids(s.waitingAfter(first, 10)))
                .containsExactly("b", "c");
    }

    @Test
    void shouldFreeTheGpusOfACompletedJob() {
        Workload w = fifo();
        ActiveJob a = w.arrive(Job.simple("a", 0, 3, 10), 0);
        w.session(0).start(a, Placement.of(gpus(0, 1, 2)), 1.0);
        assertThat(w.state().fullyFreeGpus(0)).isEqualTo(1);

        w.complete(a, 10);

        assertThat(w.state().fullyFreeGpus(0)).isEqualTo(4);
        assertThat(w.state().allocatedGpuMilli()).isZero();
        assertThat(w.running()).isEmpty();
    }

    @Test
    void shouldPutAPreemptedJobBackInTheQueue() {
        Workload w = fifo();
        ActiveJob a = w.arrive(Job.simple("a", 0, 4, 100), 0);
        w.session(0).start(a, Placement.of(gpus(0, 1, 2, 3)), 1.0);

        w.session(50).preempt(a, Decision.Reason.PRIORITY);

        assertThat(w.waitingCount()).isEqualTo(1);
        assertThat(w.state().fullyFreeGpus(0)).isEqualTo(4);
        assertThat(a.remainingAt(50)).isCloseTo(50, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(w.preemptions()).isEqualTo(1);
    }

    @Test
    void shouldRefuseToStartAJobThatIsNotWaiting() {
        Workload w = fifo();
        ActiveJob a = w.arrive(Job.simple("a", 0, 1, 10), 0);
        Workload.Session s = w.session(0);
        s.start(a, Placement.of(gpus(0)), 1.0);

        assertThatThrownBy(() -> s.start(a, Placement.of(gpus(1)), 1.0)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not waiting");
    }

    /** Every method but waitingAfter forwarded, so the interface's default definition runs. */
    private record DelegatingContext(SchedulingContext d) implements SchedulingContext {
        @Override public double now() { return d.now(); }
        @Override public ClusterView cluster() { return d.cluster(); }
        @Override public List<ActiveJob> waiting(int limit) { return d.waiting(limit); }
        @Override public int waitingCount() { return d.waitingCount(); }
        @Override public java.util.Collection<ActiveJob> running() { return d.running(); }
        @Override public QuotaStatus quota(Job job, int gpus) { return d.quota(job, gpus); }
        @Override public void start(ActiveJob job, Placement p, double cpuSpeed) { d.start(job, p, cpuSpeed); }
        @Override public void preempt(ActiveJob job, Decision.Reason reason) { d.preempt(job, reason); }
        @Override public void migrate(ActiveJob job, Placement to) { d.migrate(job, to); }
        @Override public void resize(ActiveJob job, Placement to) { d.resize(job, to); }
        @Override public List<Decision> decisions() { return d.decisions(); }
    }
}
