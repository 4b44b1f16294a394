package dev.continuum.placement.core.planner;

import static dev.continuum.placement.core.planner.World.MB;
import static dev.continuum.placement.core.planner.World.NOW;
import static dev.continuum.placement.core.planner.World.classify;
import static dev.continuum.placement.core.planner.World.placed;
import static dev.continuum.placement.core.planner.World.planner;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import java.util.List;
import org.junit.jupiter.api.Test;

class InferencePlacementTest {
    /** gw-1 holds the data; the datacenter pool is idle and faster, behind a link of {@code gbps}. */
    private static World edgeAndDatacenter(int gatewayQueue, double gbps) {
        return new World().gateway("gw-1", "T4", gatewayQueue, "resnet").pool("dc", 4, 0)
                .link("gw-1", "dc", gbps, 20);
    }

    @Test
    void shouldRunBesideTheDataWhenTheLinkIsSlow() {
        OnlinePlanner planner = planner(edgeAndDatacenter(2, 0.01).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 50 * MB, 0), NOW));

        assertThat(p.chosen().site()).isEqualTo("gw-1");
        assertThat(p.chosen().latency().transferMillis()).isZero();
        assertThat(p.alternatives()).singleElement().satisfies(dc -> {
            assertThat(dc.site()).isEqualTo("dc");
            assertThat(dc.latency().transferMillis()).isEqualTo(40_020); // 50 MB over 10 Mbit/s + 20 ms
            assertThat(dc.explanation()).contains("47.7 MiB from gw-1 at 10.0 Mbit/s configured");
        });
        // two tasks ahead on one worker: the running one half done, then the other, then this one
        assertThat(p.reasons().getFirst()).startsWith("gw-1: predicted 250 ms, the fastest of 2 sites");
    }

    @Test
    void shouldMoveTheDataWhenTheEdgeQueueIsLong() {
        OnlinePlanner planner = planner(edgeAndDatacenter(20, 1).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 10 * MB, 0), NOW));

        assertThat(p.chosen().site()).isEqualTo("dc");
        assertThat(p.chosen().latency().transferMillis()).isEqualTo(100); // 10 MB at 1 Gbit/s + 20 ms
        assertThat(p.alternatives().getFirst().explanation())
                .contains("queue 1950 ms (20 tasks ahead × 100 ms over 1 worker, the running one half done)");
    }

    @Test
    void shouldPredictNoWaitWhileAWorkerOfThePoolIsFree() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 40, "resnet").pool("dc", 1, 3)
                .link("gw-1", "dc", 1, 20).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 10 * MB, 0), NOW));

        assertThat(p.chosen().site()).isEqualTo("dc");
        assertThat(p.chosen().latency().queueMillis()).isZero();
        assertThat(p.chosen().explanation()).contains("queue 0 ms (3 tasks ahead, 4 workers: one is free)");
    }

    @Test
    void shouldCountTheQueueDrainingWhileTheInputMoves() {
        // 8 tasks ahead on 4 workers: a worker frees in (8 − 4 + 0.5) × 100 / 4 = 113 ms; the input takes 100 ms
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 40, "resnet").pool("dc", 1, 8)
                .link("gw-1", "dc", 1, 20).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 10 * MB, 0), NOW));

        assertThat(p.chosen().latency().transferMillis()).isEqualTo(100);
        assertThat(p.chosen().latency().queueMillis()).isEqualTo(13);
        assertThat(p.chosen().explanation()).contains("less the 100 ms it drains while the job gets there");
    }

    @Test
    void shouldQueueAnInputBehindTheInputsItAlreadySentOverTheSameLink() {
        OnlinePlanner planner = planner(edgeAndDatacenter(32, 0.1).inventory());

        PlacementDecision.Placed first = placed(planner.place(classify("r1", "ep-gw-1", 10 * MB, 0), NOW));
        PlacementDecision.Placed second = placed(planner.place(classify("r2", "ep-gw-1", 10 * MB, 0), NOW + 100));
        PlacementDecision.Placed later = placed(planner.place(classify("r3", "ep-gw-1", 10 * MB, 0), NOW + 5_000));

        assertThat(first.chosen().latency().transferMillis()).isEqualTo(820); // 10 MB at 100 Mbit/s + 20 ms
        // the link is busy with r1's input until NOW + 800: r2's starts then
        assertThat(second.chosen().latency().transferMillis()).isEqualTo(700 + 820);
        assertThat(second.chosen().explanation()).contains("after 700 ms of inputs already on the link");
        assertThat(later.chosen().latency().transferMillis()).isEqualTo(820);
    }

    @Test
    void shouldQueueAnInputBehindWhatTheSameGatewaySendsElsewhereOverItsOneUplink() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 0, "resnet")
                .pool("dc", 4, 0).link("gw-1", "dc", 0.1, 20).link("gw-1", "gw-2", 0.1, 20).inventory());

        PlacementDecision.Placed toPool = placed(planner.place(
                classify("r1", "ep-gw-1", 10 * MB, 0).withGpuMemoryAndSite(0, "dc"), NOW));
        PlacementDecision.Placed toGateway = placed(planner.place(
                classify("r2", "ep-gw-1", 10 * MB, 0).withGpuMemoryAndSite(0, "gw-2"), NOW + 100));

        assertThat(toPool.chosen().latency().transferMillis()).isEqualTo(820); // 10 MB at 100 Mbit/s + 20 ms
        // another destination, the same uplink out of gw-1: r2's input leaves when r1's is through, at NOW + 800
        assertThat(toGateway.chosen().latency().transferMillis()).isEqualTo(700 + 820);
    }

    @Test
    void shouldSpillToTheDatacenterWhenTheEdgeIsSaturated() {
        // beside the data would still be faster (32 × 100 ms = 3.3 s < 40 s over the slow link), but gw-1 is full
        OnlinePlanner planner = planner(edgeAndDatacenter(32, 0.01).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 50 * MB, 0), NOW));

        assertThat(p.chosen().site()).isEqualTo("dc");
        assertThat(p.reasons()).contains("gw-1: saturated: 32 tasks waiting (limit 32)");
    }

    @Test
    void shouldRuleOutASiteWhosePredictionIsOverTheSlo() {
        OnlinePlanner planner = planner(edgeAndDatacenter(0, 1).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 100 * MB, 500), NOW));

        assertThat(p.chosen().site()).isEqualTo("gw-1");
        assertThat(p.reasons().getFirst()).endsWith("within the 500 ms SLO");
        assertThat(p.reasons()).contains("dc: predicted 920 ms exceeds the 500 ms SLO");
        assertThat(p.alternatives().getFirst().explanation()).startsWith("ruled out, predicted 920 ms exceeds");
    }

    @Test
    void shouldPickTheFastestAndSaySoWhenNoSiteMeetsTheSlo() {
        OnlinePlanner planner = planner(edgeAndDatacenter(5, 1).inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", 10 * MB, 50), NOW));

        assertThat(p.chosen().site()).isEqualTo("dc");
        assertThat(p.reasons().getFirst()).startsWith("SLO cannot be met: no site is predicted within 50 ms; dc:");
    }

    @Test
    void shouldCountJobsItPlacedUntilTheNextHeartbeatReportsThem() {
        OnlinePlanner planner = planner(new World().gateway("gw-1", "T4", 0).gateway("gw-2", "T4", 0).inventory());

        List<String> sites = List.of(1, 2, 3, 4).stream()
                .map(i -> placed(planner.place(PlacementRequest.inference("r" + i, "resnet", Demand.wholeGpus(1),
                        List.of(), 0), NOW)).chosen().site()).toList();

        assertThat(sites).containsExactly("gw-1", "gw-2", "gw-1", "gw-2");
    }

    @Test
    void shouldSayWhatRuledOutEachSiteWhenNoSiteCanRunTheJob() {
        World w = new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 0, "bert")
                .gateway("gw-3", "T4", 0, "resnet").pool("dc", 2, 0);
        Inventory inventory = w.inventory().withStatus("gw-3", w.inventory().status().get("gw-3").offline())
                .withStatus("dc", SiteStatus.inference(0, java.util.Set.of()).offline());
        OnlinePlanner planner = planner(inventory);
        PlacementRequest twoGpus = PlacementRequest.inference("r1", "resnet", Demand.wholeGpus(2), List.of(), 0);

        PlacementDecision d = planner.place(twoGpus, NOW).decision();

        assertThat(d).isInstanceOfSatisfying(PlacementDecision.Unplaceable.class, u -> assertThat(u.reasons())
                .containsExactly("gw-1: needs 2 GPUs, largest node has 1",
                        "gw-2: model resnet is not loaded (it has [bert])", "gw-3: offline", "dc: offline"));
    }

    @Test
    void shouldGroupSitesRuledOutForTheSameReasonIntoOneLine() {
        World w = new World();
        for (int i = 1; i <= 6; i++) {
            w.gateway("gw-" + i, "T4", 0, "resnet");
        }
        OnlinePlanner planner = planner(w.inventory());

        PlacementDecision.Placed p = placed(planner.place(classify("r1", "ep-gw-1", MB, 0), NOW));

        assertThat(p.chosen().site()).isEqualTo("gw-1");
        assertThat(p.reasons()).contains("gw-2, gw-3 and 3 other sites: no link to gw-1, where ep-gw-1 holds the input");
    }

    @Test
    void shouldListOnlyTheBestAlternativesAndSayHowManyMoreWereScored() {
        World w = new World();
        for (int i = 1; i <= 8; i++) {
            w.gateway("gw-" + i, "T4", i, "resnet");
        }
        OnlinePlanner planner = planner(w.inventory());

        PlacementDecision.Placed p = placed(planner.place(PlacementRequest.inference("r1", "resnet",
                Demand.wholeGpus(1), List.of(), 0), NOW));

        assertThat(p.alternatives()).extracting(PlacementDecision.Candidate::site)
                .containsExactly("gw-2", "gw-3", "gw-4", "gw-5", "gw-6");
        assertThat(p.reasons()).contains("2 more sites scored worse and are not listed");
    }
}
