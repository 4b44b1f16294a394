package dev.continuum.placement.core.planner;

import static dev.continuum.placement.core.planner.World.MB;
import static dev.continuum.placement.core.planner.World.NOW;
import static dev.continuum.placement.core.planner.World.classify;
import static dev.continuum.placement.core.planner.World.placed;
import static dev.continuum.placement.core.planner.World.planner;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A gateway that disappears after a decision: the job it had is placed again elsewhere, and the decision says so. */
class StrandedJobTest {
    private static World twoGateways() {
        return new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 3, "resnet")
                .link("gw-1", "gw-2", 1, 5);
    }

    @Test
    void shouldPlaceAJobAgainWhenItsGatewayGoesOffline() {
        World world = twoGateways();
        OnlinePlanner planner = planner(world.inventory());
        assertThat(placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW)).chosen().site()).isEqualTo("gw-1");

        List<PlacementDecision> after = planner.update(
                world.status("gw-1", SiteStatus.inference(0, Set.of("resnet")).offline()).inventory(), NOW + 1000);

        assertThat(after).singleElement().isInstanceOfSatisfying(PlacementDecision.Placed.class, p -> {
            assertThat(p.requestId()).isEqualTo("r1");
            assertThat(p.chosen().site()).isEqualTo("gw-2");
            assertThat(p.reasons().getFirst()).isEqualTo("placed again: gw-1 went offline before the job finished");
        });
    }

    @Test
    void shouldLeaveAFinishedJobAlone() {
        World world = twoGateways();
        OnlinePlanner planner = planner(world.inventory());
        planner.place(classify("r1", "ep-gw-1", MB, 0), NOW);
        planner.observe(new Observation.JobCompleted("r1", "gw-1", "resnet", 80, NOW + 500));

        assertThat(planner.update(world.status("gw-1", SiteStatus.inference(0, Set.of("resnet")).offline())
                .inventory(), NOW + 1000)).isEmpty();
    }

    @Test
    void shouldSayWhyWhenNoOtherSiteCanTakeIt() {
        World world = new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 0, "bert");
        OnlinePlanner planner = planner(world.inventory());
        planner.place(classify("r1", "ep-gw-1", MB, 0), NOW);

        List<PlacementDecision> after = planner.update(
                world.status("gw-1", SiteStatus.inference(0, Set.of("resnet")).offline()).inventory(), NOW + 1000);

        assertThat(after).singleElement().isInstanceOfSatisfying(PlacementDecision.Unplaceable.class, u ->
                assertThat(u.reasons()).containsExactly("gw-1: offline",
                        "gw-2: model resnet is not loaded (it has [bert])"));
    }
}
