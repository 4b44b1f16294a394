package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.core.state.Slice;
import dev.continuum.placement.core.state.Workload;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.Set;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Best fit visits only idle-node representatives and the tightest busy nodes (issue 19 item 8);
 * it must choose exactly the node and GPU that scoring every node chooses, or replays change.
 */
class BestFitIndexTest {
    /** Not {@link PlacementStrategy#ANY_NODE}, so the strategy scores every node. */
    private static final IntPredicate EVERY_NODE_SCANNED = node -> true;

    @Test
    void bestFitShouldChooseWhatScoringEveryNodeChoosesThroughAThousandStartsAndCompletions() {
        List<NodeSpec> nodes = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            nodes.add(switch (i % 4) {
                case 0, 1 -> new NodeSpec("v" + i, "r" + i / 16, 8, "V100", 32_768, 96_000, 512_000);
                case 2 -> new NodeSpec("t" + i, "r" + i / 16, 4, "T4", 16_384, 32_000, 128_000);
                default -> new NodeSpec("c" + i, "r" + i / 16, 0, "", 0, 64_000, 256_000);
            });
        }
        Cluster cluster = Cluster.of("mixed", nodes);
        Workload w = new Workload(new ClusterState(cluster), Policies.parse("fifo").order(), PreemptionCosts.FREE, false);
        ClusterState state = w.state();
        BestFit bestFit = new BestFit();
        SplittableRandom random = new SplittableRandom(7);
        List<ActiveJob> running = new ArrayList<>();
        int compared = 0;
        int placed = 0;
        for (int step = 0; step < 1000; step++) {
            double now = step;
            if (!running.isEmpty() && random.nextInt(3) == 0) {
                w.complete(running.remove(random.nextInt(running.size())), now);
                continue;
            }
            Demand d = randomDemand(random);
            Slice indexed = bestFit.placeOnNode(d, state, PlacementStrategy.ANY_NODE);
            Slice scanned = bestFit.placeOnNode(d, state, EVERY_NODE_SCANNED);
            compared++;
            assertThat(describe(indexed)).as("step %d, demand %s", step, d).isEqualTo(describe(scanned));
            if (indexed != null) {
                Job job = new Job("j" + step, "", "", (long) now, d, 1_000_000, 0, true, true, d.gpus(), d.gpus(), 0);
                ActiveJob a = w.arrive(job, now);
                w.session(now).start(a, Placement.of(indexed), 1.0);
                running.add(a);
                placed++;
            }
        }
        assertThat(compared).isGreaterThan(500);
        assertThat(placed).isGreaterThan(300); // the cluster filled and emptied, not just stayed idle
    }

    private static String describe(Slice s) {
        return s == null ? "nowhere" : "node " + s.node() + " GPUs " + java.util.Arrays.toString(s.gpus()) + " x" + s.milliPerGpu();
    }

    private static Demand randomDemand(SplittableRandom r) {
        return switch (r.nextInt(4)) {
            case 0 -> new Demand(1, 100 * (1 + r.nextInt(9)), Set.of(), 1_000L * r.nextInt(8), 1_024L * r.nextInt(32));
            case 1 -> new Demand(1 + r.nextInt(8), 1000, r.nextBoolean() ? Set.of() : Set.of("V100"),
                    4_000L * r.nextInt(4), 16_384L * r.nextInt(4));
            case 2 -> new Demand(0, 0, Set.of(), 1_000L * (1 + r.nextInt(16)), 4_096L * r.nextInt(8));
            default -> new Demand(1, 1000, Set.of(), 2_000, 8_192);
        };
    }
}
