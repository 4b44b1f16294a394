package dev.continuum.placement.core.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.policy.MovePolicy.JobView;
import dev.continuum.placement.core.policy.MovePolicy.Phase;
import dev.continuum.placement.core.policy.MovePolicy.Pool;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** When a training job moves to another partition or site, and when it stays. */
class MovePolicyTest {
    private static final double NOW = 10_000;
    /** No residence rule, a minute's restart, 100 MB/s between sites, twice the cost. */
    private static final MovePolicy POLICY = new MovePolicy(new MovePolicy.Costs(100e6, 60, 0, 2));

    private static JobView running(String id, String pool, int gpus, int priority, double remaining) {
        return new JobView(id, pool, Phase.RUNNING, gpus, Set.of(), priority, 1_000_000, remaining, 0, true);
    }

    private static JobView waiting(String id, String pool, int gpus, int priority, Set<String> models) {
        return new JobView(id, pool, Phase.WAITING, gpus, models, priority, 0, 3600, 0, true);
    }

    @Test
    void aRunningJobLeavesAContendedPartitionForOneWithFreeGpusOfTheModelItNeeds() {
        List<Pool> pools = List.of(new Pool("a", "dc", "a100", 2, 0), new Pool("b", "dc", "v100", 2, 0),
                new Pool("c", "dc", "v100", 2, 2));
        // "low" runs in a; "high" needs an a100, which only a has; c is free
        List<MovePolicy.Move> moves = POLICY.decide(pools, List.of(running("low", "a", 2, 0, 3000),
                waiting("high", "a", 2, 5, Set.of("a100"))), NOW);

        assertThat(moves).singleElement().satisfies(m -> {
            assertThat(m.jobId()).isEqualTo("low");
            assertThat(m.from()).isEqualTo("a");
            assertThat(m.to()).isEqualTo("c");
            assertThat(m.reason()).contains("high waits in a for 2 GPUs", "c can run this job now");
            assertThat(m.benefitGpuSeconds()).isEqualTo(2 * 3000.0);
            assertThat(m.costGpuSeconds()).isEqualTo(2 * 60.0); // same site: no checkpoint carried
        });
    }

    @Test
    void aWaitingJobThatAnotherPoolCanRunNowGoesThereRatherThanMovingARunningOne() {
        List<Pool> pools = List.of(new Pool("a", "dc", "", 2, 0), new Pool("b", "dc", "", 2, 2));
        List<MovePolicy.Move> moves = POLICY.decide(pools, List.of(running("low", "a", 2, 0, 3000),
                waiting("new", "a", 2, 0, Set.of())), NOW);

        assertThat(moves).singleElement().satisfies(m -> {
            assertThat(m.jobId()).isEqualTo("new");
            assertThat(m.to()).isEqualTo("b");
            assertThat(m.reason()).contains("a has no 2 free GPUs", "b can run it now");
        });
    }

    @Test
    void aJobStaysWhenCarryingItsCheckpointToAnotherSiteCostsMoreThanTheWaitItSaves() {
        List<Pool> pools = List.of(new Pool("dc-a/p", "dc-a", "a100", 2, 0), new Pool("dc-b/p", "dc-b", "", 2, 2));
        // 100 GB over 100 MB/s: 1,000 s carried + 60 s restart, against a waiter that frees in 600 s
        JobView big = new JobView("big", "dc-a/p", Phase.RUNNING, 2, Set.of(), 0, 100_000_000_000L, 600, 0, true);
        JobView waiter = waiting("w", "dc-a/p", 2, 0, Set.of("a100"));
        assertThat(POLICY.decide(pools, List.of(big, waiter), NOW)).isEmpty();

        // the same job with a small checkpoint moves
        JobView small = new JobView("big", "dc-a/p", Phase.RUNNING, 2, Set.of(), 0, 1_000_000, 600, 0, true);
        assertThat(POLICY.decide(pools, List.of(small, waiter), NOW)).extracting(MovePolicy.Move::to)
                .containsExactly("dc-b/p");
    }

    @Test
    void aJobWhoseCheckpointCannotLeaveItsSiteOnlyMovesWithinIt() {
        List<Pool> pools = List.of(new Pool("dc-a/p", "dc-a", "a100", 2, 0), new Pool("dc-b/p", "dc-b", "", 2, 2));
        JobView pinned = new JobView("low", "dc-a/p", Phase.RUNNING, 2, Set.of(), 0, 0, 3000, 0, false);
        assertThat(POLICY.decide(pools, List.of(pinned, waiting("w", "dc-a/p", 2, 0, Set.of("a100"))), NOW)).isEmpty();
    }

    @Test
    void aJobIsNeverMovedForALowerPriorityOne() {
        List<Pool> pools = List.of(new Pool("a", "dc", "a100", 2, 0), new Pool("b", "dc", "", 2, 2));
        assertThat(POLICY.decide(pools, List.of(running("vip", "a", 2, 10, 3000),
                waiting("low", "a", 2, 0, Set.of("a100"))), NOW)).isEmpty();
    }

    @Test
    void aJobStaysUntilItHasResidedLongEnoughWhereItWasPut() {
        MovePolicy patient = new MovePolicy(new MovePolicy.Costs(100e6, 60, 300, 2));
        List<Pool> pools = List.of(new Pool("a", "dc", "a100", 2, 0), new Pool("b", "dc", "", 2, 2));
        JobView justMoved = new JobView("low", "a", Phase.RUNNING, 2, Set.of(), 0, 0, 3000, NOW - 100, true);
        JobView waiter = waiting("w", "a", 2, 0, Set.of("a100"));
        assertThat(patient.decide(pools, List.of(justMoved, waiter), NOW)).isEmpty();
        assertThat(patient.decide(pools, List.of(justMoved, waiter), NOW + 200)).hasSize(1);
    }

    @Test
    void aTargetKeepsRoomForItsOwnWaitersSoAMoveNeverStartsAPingPong() {
        // b has 2 free GPUs but its own waiter asks for them: moving "low" there would only make b contended
        List<Pool> pools = List.of(new Pool("a", "dc", "a100", 2, 0), new Pool("b", "dc", "v100", 4, 2));
        List<JobView> jobs = List.of(running("low", "a", 2, 0, 3000), waiting("w", "a", 2, 0, Set.of("a100")),
                running("other", "b", 2, 0, 3000), waiting("own", "b", 2, 0, Set.of("v100")));
        // "own" fits in b now: it is b's planner's to start, and it holds b's free GPUs against movers
        assertThat(POLICY.decide(pools, jobs, NOW)).isEmpty();
    }

    @Test
    void twoWaitersDoNotBothTakeTheSameFreeGpus() {
        List<Pool> pools = List.of(new Pool("a", "dc", "", 2, 0), new Pool("b", "dc", "", 2, 2));
        List<JobView> jobs = List.of(running("r", "a", 2, 0, 3000), waiting("w1", "a", 2, 0, Set.of()),
                waiting("w2", "a", 2, 0, Set.of()));
        assertThat(POLICY.decide(pools, jobs, NOW)).extracting(MovePolicy.Move::jobId).containsExactly("w1");
    }

    @Test
    void nothingMovesWhenEveryPoolCanRunWhatWaitsInIt() {
        List<Pool> pools = List.of(new Pool("a", "dc", "", 4, 2), new Pool("b", "dc", "", 2, 2));
        assertThat(POLICY.decide(pools, List.of(running("r", "a", 2, 0, 3000), waiting("w", "a", 2, 0, Set.of())),
                NOW)).isEmpty();
    }

    @Test
    void theMoveSwitchIsAPolicyPartTheParserAccepts() {
        assertThat(Policies.moves("priority+move")).isTrue();
        assertThat(Policies.moves("priority+elastic")).isFalse();
        assertThat(Policies.parse("priority+elastic+move").name()).isEqualTo("priority+elastic+move");
    }
}
