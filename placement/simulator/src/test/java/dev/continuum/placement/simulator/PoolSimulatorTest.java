package dev.continuum.placement.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.placement.simulator.PoolSimulator.JobSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The move policy the training provider runs online, run offline over the same pools and jobs with and without it. */
class PoolSimulatorTest {
    private static final MovePolicy.Costs COSTS = new MovePolicy.Costs(100e6, 60, 60, 2);

    /** Flexible jobs fill the a100 partition first; jobs that need an a100 arrive behind them; the v100 one idles. */
    private static List<JobSpec> contended(long checkpointBytes) {
        List<JobSpec> jobs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            jobs.add(new JobSpec("flex-" + i, i, "a", 2, Set.of(), 0, 1000, checkpointBytes));
        }
        for (int i = 0; i < 4; i++) {
            jobs.add(new JobSpec("a100-" + i, 10 + i, "a", 2, Set.of("a100"), 0, 500, 0));
        }
        return jobs;
    }

    @Test
    void movingFlexibleJobsOffAContendedPartitionShortensCompletionTimesAndNoJobComesBack() {
        List<MovePolicy.Pool> pools = List.of(new MovePolicy.Pool("a", "dc", "a100", 8, 8),
                new MovePolicy.Pool("b", "dc", "v100", 8, 8));
        PoolSimulator.Result stay = new PoolSimulator(pools, Optional.empty(), 10).run(contended(1_000_000_000));
        PoolSimulator.Result move = new PoolSimulator(pools, Optional.of(new MovePolicy(COSTS)), 10)
                .run(contended(1_000_000_000));

        assertThat(stay.moves()).isZero();
        assertThat(move.moves()).isEqualTo(4);
        assertThat(move.outcomes()).filteredOn(o -> o.moves() > 0)
                .allSatisfy(o -> assertThat(o.pools()).containsExactly("a", "b"))
                .extracting(PoolSimulator.Outcome::id).allMatch(id -> id.startsWith("flex-"));
        // the a100 jobs no longer wait a whole flexible run; the movers lose only their restart
        assertThat(move.averageCompletionSeconds()).isLessThan(stay.averageCompletionSeconds() * 0.8);
        assertThat(move.outcomes()).filteredOn(o -> o.id().startsWith("flex-"))
                .allSatisfy(o -> assertThat(o.completionSeconds()).isLessThanOrEqualTo(1000 + 60 + 10));
        assertThat(move.makespan()).isLessThan(stay.makespan());
    }

    @Test
    void checkpointsTooBigForTheLinkKeepEveryJobWhereItIsAndTheRunAsWithoutMoves() {
        // the other pool is at another site, behind 100 MB/s: a 1 TB checkpoint takes hours to carry
        List<MovePolicy.Pool> pools = List.of(new MovePolicy.Pool("a", "dc-a", "a100", 8, 8),
                new MovePolicy.Pool("b", "dc-b", "v100", 8, 8));
        PoolSimulator.Result stay = new PoolSimulator(pools, Optional.empty(), 10).run(contended(1_000_000_000_000L));
        PoolSimulator.Result move = new PoolSimulator(pools, Optional.of(new MovePolicy(COSTS)), 10)
                .run(contended(1_000_000_000_000L));

        assertThat(move.moves()).isZero();
        assertThat(move).isEqualTo(stay);
    }
}
