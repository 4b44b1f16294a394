package dev.continuum.placement.core.planner;

import static dev.continuum.placement.core.planner.World.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Partition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A planner restarted from its decision log (the latest decision about every unfinished job) decides afterwards
 * exactly as the planner that never stopped: running jobs keep their GPUs, queued ones keep their place, inference
 * jobs in flight are still tracked on their gateway.
 */
class RestoreTest {

    private final Inventory world = new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 0, "resnet")
            .training("dc", 2, 4, "A100", new Partition("lab", 8)).link("gw-1", "gw-2", 1, 5).inventory();

    /** The latest decision about each job, in arrival order: what the service's log keeps. */
    private final Map<String, PlacementDecision> latest = new LinkedHashMap<>();
    private final Map<String, PlacementRequest> requests = new LinkedHashMap<>();

    private PlacementResult place(OnlinePlanner p, PlacementRequest r, long at) {
        requests.put(r.id(), r);
        PlacementResult result = p.place(r, at);
        result.decisions().forEach(d -> latest.put(d.requestId(), d));
        return result;
    }

    private List<Restored> unfinished() {
        List<Restored> out = new ArrayList<>();
        latest.forEach((id, d) -> {
            if (!(d instanceof PlacementDecision.Unplaceable)) {
                out.add(new Restored(requests.get(id), NOW + out.size(), d));
            }
        });
        return out;
    }

    private static PlacementRequest train(String id, int gpus) {
        return PlacementRequest.training(id, Demand.wholeGpus(gpus), "lab", 600);
    }

    @Test
    void shouldDecideAfterARestartAsThePlannerThatNeverStopped() {
        OnlinePlanner before = World.planner(world);
        place(before, train("a", 4), NOW);
        place(before, train("b", 2), NOW + 1);
        place(before, train("c", 4), NOW + 2);           // waits: 2 GPUs free
        place(before, World.classify("img", "ep-gw-1", 1000, 0), NOW + 3);
        assertThat(latest.get("c")).isInstanceOf(PlacementDecision.Queued.class);

        OnlinePlanner after = World.planner(world);
        List<PlacementDecision> restored = after.restore(unfinished(), NOW + 10);
        assertThat(restored).as("running jobs resume silently, the queued one still cannot start").isEmpty();

        // a new job: both planners queue it behind c, with the same words
        PlacementResult d1 = before.place(train("d", 4), NOW + 20);
        PlacementResult d2 = after.place(train("d", 4), NOW + 20);
        assertThat(d2.decision()).isInstanceOf(PlacementDecision.Queued.class).isEqualTo(d1.decision());

        // a finishes: in both, c starts on the GPUs a freed
        List<PlacementDecision> freed1 = before.observe(new Observation.JobCompleted("a", "dc", "", 1000, NOW + 30_000));
        List<PlacementDecision> freed2 = after.observe(new Observation.JobCompleted("a", "dc", "", 1000, NOW + 30_000));
        assertThat(freed2).extracting(PlacementDecision::requestId).containsExactly("c");
        assertThat(((PlacementDecision.Placed) freed2.getFirst()).chosen().target())
                .isEqualTo(((PlacementDecision.Placed) freed1.getFirst()).chosen().target());

        // the inference job is still tracked on gw-1: when gw-1 goes away it is placed again on gw-2
        List<PlacementDecision> moved = after.update(new Inventory(world.clusters(), world.links(),
                world.siteByEndpoint(), Map.of("gw-1", world.statusOf(world.cluster("gw-1")).offline(),
                "gw-2", world.statusOf(world.cluster("gw-2")), "dc", SiteStatus.training())), NOW + 40_000);
        assertThat(moved).as(moved.toString()).singleElement().satisfies(d -> {
            assertThat(d.requestId()).isEqualTo("img");
            assertThat(((PlacementDecision.Placed) d).chosen().site()).isEqualTo("gw-2");
            assertThat(((PlacementDecision.Placed) d).reasons().getFirst()).startsWith("placed again: gw-1 went offline");
        });
    }

    @Test
    void shouldQueueAgainAJobWhoseGpusAreGoneAndRefuseOneWhoseSiteIsGone() {
        OnlinePlanner before = World.planner(world);
        place(before, train("a", 4), NOW);
        place(before, train("b", 4), NOW + 1);
        // the log says a runs on GPUs that the restarted cluster does not have any more: one node of 4
        Inventory smaller = new World().gateway("gw-1", "T4", 0, "resnet")
                .training("dc", 1, 4, "A100", new Partition("lab", 8)).inventory();
        OnlinePlanner after = World.planner(smaller);
        assertThat(after.restore(unfinished(), NOW + 10)).as("a resumes on dc-n0; b's node is gone, it waits").isEmpty();
        List<PlacementDecision> freed = after.observe(new Observation.JobCompleted("a", "dc", "", 1000, NOW + 20_000));
        assertThat(freed).singleElement().satisfies(d -> {
            assertThat(d.requestId()).isEqualTo("b");
            assertThat(((PlacementDecision.Placed) d).chosen().target()).isEqualTo("dc-n0 GPUs [0, 1, 2, 3]");
        });

        OnlinePlanner noCluster = World.planner(new World().gateway("gw-1", "T4", 0, "resnet").inventory());
        assertThat(noCluster.restore(unfinished(), NOW + 10)).allSatisfy(d -> {
            assertThat(d).isInstanceOf(PlacementDecision.Unplaceable.class);
            assertThat(((PlacementDecision.Unplaceable) d).reasonBySite().get("dc")).contains("restarted");
        });
    }

    @Test
    void shouldWaitForAGatewayThatHasNotReportedSinceTheRestartBeforePlacingItsJobsAgain() {
        OnlinePlanner before = World.planner(world);
        place(before, World.classify("img", "ep-gw-1", 1000, 0), NOW);
        Inventory withoutGateways = new World().training("dc", 2, 4, "A100", new Partition("lab", 8)).inventory();
        OnlinePlanner after = World.planner(withoutGateways);
        assertThat(after.restore(unfinished(), NOW + 10)).isEmpty();
        assertThat(after.update(withoutGateways, NOW + 20)).as("gw-1 has not reported yet").isEmpty();

        Inventory gw1Down = new Inventory(world.clusters(), world.links(), world.siteByEndpoint(),
                Map.of("gw-1", world.statusOf(world.cluster("gw-1")).offline(), "gw-2", world.statusOf(world.cluster("gw-2"))));
        assertThat(after.update(gw1Down, NOW + 30)).singleElement()
                .satisfies(d -> assertThat(((PlacementDecision.Placed) d).chosen().site()).isEqualTo("gw-2"));
    }
}
