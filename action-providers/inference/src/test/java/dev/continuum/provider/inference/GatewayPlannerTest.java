package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.api.client.PlannerClient;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The provider's gateway choice, made by the placement planner's core from what heartbeats said. */
class GatewayPlannerTest {

    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private final GatewayPlanner planner = new GatewayPlanner(List::of, id -> 0, Clock.fixed(NOW, ZoneOffset.UTC), List.of());

    private static Fleet.Device gw(String id, List<String> models, long gpuFreeMb, int queued) {
        List<GpuInfo> gpus = gpuFreeMb > 0 ? List.of(new GpuInfo(0, "T4", 16_000, 16_000 - gpuFreeMb, 5)) : List.of();
        Heartbeat hb = new Heartbeat(id, "cred", NOW.toString(), 1, gpus, 4, 0.1, 8_000, 4_000, 10_000, "cpu",
                models.stream().map(m -> new Heartbeat.LoadedModel("sha256:" + m, m, "1")).toList(), queued, 0, null, null);
        return new Fleet.Device(id, true, hb, NOW, NOW);
    }

    private static JobPlacement.Job job(String id, String model, long gpuMemoryMb, boolean gpu, String device) {
        return new JobPlacement.Job(id, null, model, gpuMemoryMb, gpu, device, List.of(), 0);
    }

    private String chosen(PlacementDecision d) {
        assertThat(d).isInstanceOf(PlacementDecision.Placed.class);
        return ((PlacementDecision.Placed) d).chosen().site();
    }

    @Test
    void shouldChooseTheGatewayWithTheShortestPredictedWaitThatHasTheModel() {
        List<Fleet.Device> fleet = List.of(gw("busy", List.of("cls"), 0, 5), gw("no-model", List.of("det"), 0, 0),
                gw("quiet", List.of("cls"), 0, 1));

        assertThat(chosen(planner.choose(job("j1", "cls", 0, false, null), fleet, id -> 0))).isEqualTo("quiet");
    }

    @Test
    void shouldCountTasksSentButNotYetInAHeartbeat() {
        List<Fleet.Device> fleet = List.of(gw("a", List.of("cls"), 0, 0), gw("b", List.of("cls"), 0, 2));

        assertThat(chosen(planner.choose(job("j1", "cls", 0, false, null), fleet,
                id -> id.equals("a") ? 5 : 0))).isEqualTo("b");
    }

    @Test
    void shouldRequireEnoughFreeGpuMemory() {
        List<Fleet.Device> fleet = List.of(gw("cpu-only", List.of("cls"), 0, 0), gw("small-gpu", List.of("cls"), 2_000, 0),
                gw("big-gpu", List.of("cls"), 12_000, 3));

        assertThat(chosen(planner.choose(job("j1", "cls", 8_000, false, null), fleet, id -> 0))).isEqualTo("big-gpu");
        assertThat(chosen(planner.choose(job("j2", "cls", 0, true, null), fleet, id -> 0))).isEqualTo("small-gpu");
        assertThat(planner.choose(job("j3", "cls", 32_000, false, null), fleet, id -> 0))
                .isInstanceOfSatisfying(PlacementDecision.Unplaceable.class, u -> assertThat(u.reasonBySite()).containsEntry(
                        "big-gpu", "has 12000 MiB of GPU memory free, the job needs 32000 MiB")
                        .containsEntry("cpu-only", "has no GPU, the job needs 1 GPU"));
    }

    @Test
    void shouldHonourAPinnedDeviceAndSayWhyItCannotRun() {
        List<Fleet.Device> fleet = List.of(gw("a", List.of("cls"), 0, 0), gw("b", List.of("cls"), 0, 7),
                gw("c", List.of("det"), 0, 0));

        assertThat(chosen(planner.choose(job("j1", "cls", 0, false, "b"), fleet, id -> 0))).isEqualTo("b");
        assertThat(planner.choose(job("j2", "cls", 0, false, "c"), fleet, id -> 0))
                .isInstanceOfSatisfying(PlacementDecision.Unplaceable.class, u -> assertThat(u.reasonBySite())
                        .containsEntry("a", "the job asks for c").containsKey("c"));
    }

    @Test
    void shouldExplainWhyNothingFits() {
        assertThat(planner.choose(job("j1", "cls", 0, false, null), List.of(), id -> 0))
                .isEqualTo(new PlacementDecision.Unplaceable("j1", Map.of("fleet", "no gateway is online")));
        assertThat(planner.choose(job("j2", "cls", 0, false, null), List.of(gw("a", List.of("det"), 0, 0)), id -> 0))
                .isInstanceOfSatisfying(PlacementDecision.Unplaceable.class,
                        u -> assertThat(String.join("; ", u.reasons())).contains("cls"));
    }

    @Test
    void shouldLearnThatAGatewayIsSlowFromCompletedJobs() {
        List<Fleet.Device> fleet = List.of(gw("fast", List.of("cls"), 0, 2), gw("slow", List.of("cls"), 0, 1));
        // before it has learnt anything, the shorter queue wins
        assertThat(chosen(planner.choose(job("j0", "cls", 0, false, null), fleet, id -> 0))).isEqualTo("slow");
        for (int i = 0; i < 5; i++) {
            planner.completed(job("done-" + i, "cls", 0, false, null), "slow", computeOnly(900));
            planner.completed(job("fast-" + i, "cls", 0, false, null), "fast", computeOnly(20));
        }

        // 1 task × 900 ms + 900 ms on "slow" is worse than 2 × 20 ms + 20 ms on "fast"
        assertThat(chosen(planner.choose(job("j1", "cls", 0, false, null), fleet, id -> 0))).isEqualTo("fast");
    }

    private static PlannerClient.Measured computeOnly(long millis) {
        return new PlannerClient.Measured(millis, PlannerClient.NOT_MEASURED, PlannerClient.NOT_MEASURED,
                PlannerClient.NOT_MEASURED);
    }

    @Test
    void shouldPredictTheRoundTripOverheadTheProviderMeasured() {
        List<Fleet.Device> fleet = List.of(gw("gw", List.of("cls"), 0, 0));
        PlacementDecision first = planner.choose(job("j0", "cls", 0, false, null), fleet, id -> 0);
        assertThat(((PlacementDecision.Placed) first).chosen().latency().transferMillis()).isZero();
        planner.completed(job("j0", "cls", 0, false, null), "gw", new PlannerClient.Measured(30, 5, 0, 180));

        PlacementDecision next = planner.choose(job("j1", "cls", 0, false, null), fleet, id -> 0);
        assertThat(((PlacementDecision.Placed) next).chosen().latency().transferMillis()).isEqualTo(180);
    }

    @Test
    void shouldCorrectTheLinkFromTheInputMoveTheProviderMeasured() {
        GatewayPlanner linked = new GatewayPlanner(List::of, id -> 0, Clock.fixed(NOW, ZoneOffset.UTC),
                List.of(new dev.continuum.placement.core.model.Link("edge", "dc", 1.0, 20)));
        List<Fleet.Device> fleet = List.of(gw("edge", List.of("det"), 0, 0), gw("dc", List.of("cls"), 0, 0));
        JobPlacement.Job j0 = withInput("j0");
        PlacementDecision first = linked.choose(j0, fleet, id -> 0);
        assertThat(chosen(first)).isEqualTo("dc");
        // configured: 20 ms + 50 MB at 1 Gbit/s
        assertThat(((PlacementDecision.Placed) first).chosen().latency().transferMillis()).isEqualTo(420);

        // the provider moved the 50 MB in 5,020 ms
        linked.completed(j0, "dc", new PlannerClient.Measured(30, 0, 5020, PlannerClient.NOT_MEASURED));

        PlacementDecision next = linked.choose(withInput("j1"), fleet, id -> 0);
        assertThat(((PlacementDecision.Placed) next).chosen().latency().transferMillis()).isGreaterThan(420)
                .isLessThanOrEqualTo(5020);
    }

    private static JobPlacement.Job withInput(String id) {
        return new JobPlacement.Job(id, null, "cls", 0, false, null,
                List.of(new JobPlacement.Data("edge", "file:frames/f.json", 50_000_000)), 0);
    }
}
