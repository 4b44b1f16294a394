package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.state.Workload;
import org.junit.jupiter.api.Test;

import static dev.continuum.placement.core.policy.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class OrderPoliciesTest {
    private final Cluster oneNode = cluster(node("n0", "r0", 4));

    @Test
    void fifoShouldStartTheEarliestJobEvenWhenALaterOneIsShorter() {
        Policy fifo = Policies.parse("fifo");
        Workload w = workload(oneNode, fifo);
        w.arrive(job("long", 0, 4, 1000), 0);
        w.arrive(job("short", 1, 4, 10), 1);

        assertThat(round(w, fifo, 1)).containsExactly("start:long");
    }

    @Test
    void sjfShouldStartTheShortestJobFirst() {
        Policy sjf = Policies.parse("sjf");
        Workload w = workload(oneNode, sjf);
        w.arrive(job("long", 0, 4, 1000), 0);
        w.arrive(job("short", 1, 4, 10), 1);

        assertThat(round(w, sjf, 1)).containsExactly("start:short");
    }

    @Test
    void sjfShouldNotPreemptARunningLongJob() {
        Policy sjf = Policies.parse("sjf");
        Workload w = workload(oneNode, sjf);
        occupy(w, job("long", 0, 4, 1000), 0, 0, 0, 1, 2, 3);
        w.arrive(job("short", 5, 4, 10), 5);

        assertThat(round(w, sjf, 5)).isEmpty();
    }

    @Test
    void srtfShouldPreemptTheJobWithMoreRemainingTime() {
        Policy srtf = Policies.parse("srtf");
        Workload w = workload(oneNode, srtf);
        occupy(w, job("long", 0, 4, 1000), 0, 0, 0, 1, 2, 3);
        w.arrive(job("short", 5, 4, 10), 5);

        assertThat(round(w, srtf, 5)).containsExactly("preempt:long", "start:short");
    }

    @Test
    void srtfShouldLeaveAlone_aRunningJobCloserToTheEnd() {
        Policy srtf = Policies.parse("srtf");
        Workload w = workload(oneNode, srtf);
        occupy(w, job("almost-done", 0, 4, 100), 0, 0, 0, 1, 2, 3);
        w.arrive(job("new", 95, 4, 50), 95);

        assertThat(round(w, srtf, 95)).isEmpty();
    }

    @Test
    void lasShouldPreemptAJobDemotedPastTheThresholdButNotOneStillInTheTopLevel() {
        Policy las = new StandardPolicy("las", new LeastAttainedService(new double[]{400}), new BestFit(),
                PolicyOptions.defaults(true));
        Workload early = workload(oneNode, las);
        occupy(early, job("old", 0, 4, 10_000), 0, 0, 0, 1, 2, 3);
        early.arrive(job("new", 50, 4, 10_000), 50);
        // 4 GPUs x 50 s = 200 GPU-s attained: same level, so arrival order keeps "old" running
        assertThat(round(early, las, 50)).isEmpty();

        Workload late = workload(oneNode, las);
        occupy(late, job("old", 0, 4, 10_000), 0, 0, 0, 1, 2, 3);
        late.arrive(job("new", 200, 4, 10_000), 200);
        // 800 GPU-s attained: demoted below the newcomer, whatever their (unknown) durations
        assertThat(round(late, las, 200)).containsExactly("preempt:old", "start:new");
    }

    @Test
    void qssfShouldPreferTheUserWhosePastJobsWereShort() {
        QuasiShortestServiceFirst order = new QuasiShortestServiceFirst();
        Policy qssf = new StandardPolicy("qssf", order, new BestFit(), PolicyOptions.defaults(false));
        Workload history = workload(oneNode, qssf);
        var alicePast = occupy(history, job("a0", 0, 1, 50_000).withUser("alice"), 0, 0, 0);
        var bobPast = occupy(history, job("b0", 0, 1, 60).withUser("bob"), 0, 0, 1);
        order.onCompletion(alicePast, 50_000);
        order.onCompletion(bobPast, 60);

        Workload w = workload(oneNode, qssf);
        w.arrive(job("alice-next", 0, 4, 100).withUser("alice"), 0);
        w.arrive(job("bob-next", 1, 4, 100).withUser("bob"), 1);

        assertThat(order.predictedDuration(job("x", 0, 1, 1).withUser("bob"))).isEqualTo(60);
        assertThat(round(w, qssf, 1)).containsExactly("start:bob-next");
    }
}
