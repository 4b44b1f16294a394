package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.state.Workload;
import org.junit.jupiter.api.Test;

import static dev.continuum.placement.core.policy.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/** One scheduling round of {@link StandardPolicy}: how far down the queue it looks. */
class SchedulingRoundTest {
    @Test
    void shouldStartEveryJobThatFitsWhenTheLookaheadIsSmallerThanTheQueue() {
        Policy fifo = Policies.parse("fifo", PolicyOptions.defaults(false).withLookahead(1));
        Workload w = workload(cluster(node("n0", "r0", 4)), fifo);
        for (int i = 0; i < 4; i++) {
            w.arrive(job("j" + i, 0, 1, 100), 0);
        }

        assertThat(round(w, fifo, 0)).containsExactly("start:j0", "start:j1", "start:j2", "start:j3");
    }

    @Test
    void shouldLookPastTheFirstWindowForAJobThatFitsWhileFewerThanLookaheadJobsWerePassedOver() {
        Policy fifo = Policies.parse("fifo", PolicyOptions.defaults(false).withLookahead(2));
        Workload w = workload(cluster(node("n0", "r0", 4)), fifo);
        w.arrive(job("a", 0, 1, 100), 0);
        w.arrive(job("b", 1, 1, 100), 1);
        w.arrive(job("big", 2, 4, 100), 2);
        w.arrive(job("c", 3, 1, 100), 3);

        assertThat(round(w, fifo, 3)).containsExactly("start:a", "start:b", "start:c");
    }

    @Test
    void shouldStopOnceLookaheadJobsWerePassedOverSoLargeJobsAreNotStarved() {
        Policy fifo = Policies.parse("fifo", PolicyOptions.defaults(false).withLookahead(1));
        Workload w = workload(cluster(node("n0", "r0", 4)), fifo);
        occupy(w, job("running", 0, 2, 1000), 0, 0, 0, 1);
        w.arrive(job("big", 1, 4, 100), 1);
        w.arrive(job("small", 2, 1, 100), 2);

        assertThat(round(w, fifo, 2)).isEmpty();
    }

    @Test
    void shouldStopLookingWhenNoGpuIsFree() {
        Policy fifo = Policies.parse("fifo", PolicyOptions.defaults(false).withLookahead(1));
        Workload w = workload(cluster(node("n0", "r0", 2)), fifo);
        for (int i = 0; i < 5; i++) {
            w.arrive(job("j" + i, 0, 1, 100), 0);
        }

        assertThat(round(w, fifo, 0)).containsExactly("start:j0", "start:j1");
        assertThat(w.waitingCount()).isEqualTo(3);
    }

    @Test
    void shouldStartAGangJobAfterASmallerSingleNodeJobFailed() {
        // three nodes with 3 of 4 GPUs free each: no node has 4 free, but 9 GPUs span them
        Cluster c = cluster(node("n0", "r0", 4), node("n1", "r0", 4), node("n2", "r0", 4));
        Policy fifo = Policies.parse("fifo");
        Workload w = workload(c, fifo);
        for (int n = 0; n < 3; n++) {
            occupy(w, job("busy" + n, 0, 1, 1000), n, 0, 0);
        }
        w.arrive(job("four", 1, 4, 100), 1);
        w.arrive(job("gang", 2, 9, 100), 2);

        assertThat(round(w, fifo, 2)).containsExactly("start:gang");
    }
}
