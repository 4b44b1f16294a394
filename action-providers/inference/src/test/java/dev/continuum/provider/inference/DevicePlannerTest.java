package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.inference.DevicePlanner.Candidate;
import dev.continuum.provider.inference.DevicePlanner.Demand;
import java.util.List;
import org.junit.jupiter.api.Test;

class DevicePlannerTest {

    private final DevicePlanner planner = new DevicePlanner();

    private static Candidate gw(String id, boolean online, List<String> models, long gpuFree, int gpus, int queued) {
        return new Candidate(id, online, models, gpuFree, gpus, queued, 0, 0.1);
    }

    @Test
    void shouldChooseTheLeastLoadedGatewayThatHasTheModel() {
        List<Candidate> fleet = List.of(
                gw("busy", true, List.of("cls"), 0, 0, 5),
                gw("idle-no-model", true, List.of("det"), 0, 0, 0),
                gw("quiet", true, List.of("cls"), 0, 0, 1));

        assertThat(planner.choose(fleet, new Demand("cls", 0, false, null))).isEqualTo(new DevicePlanner.Placed("quiet"));
    }

    @Test
    void shouldSkipOfflineGateways() {
        List<Candidate> fleet = List.of(gw("down", false, List.of("cls"), 0, 0, 0), gw("up", true, List.of("cls"), 0, 0, 9));

        assertThat(planner.choose(fleet, new Demand("cls", 0, false, null))).isEqualTo(new DevicePlanner.Placed("up"));
    }

    @Test
    void shouldRequireEnoughFreeGpuMemory() {
        List<Candidate> fleet = List.of(
                gw("cpu-only", true, List.of("cls"), 0, 0, 0),
                gw("small-gpu", true, List.of("cls"), 2_000, 1, 0),
                gw("big-gpu", true, List.of("cls"), 16_000, 1, 3));

        assertThat(planner.choose(fleet, new Demand("cls", 8_000, false, null))).isEqualTo(new DevicePlanner.Placed("big-gpu"));
        assertThat(planner.choose(fleet, new Demand("cls", 0, true, null))).isEqualTo(new DevicePlanner.Placed("small-gpu"));
        assertThat(planner.choose(fleet, new Demand("cls", 32_000, false, null)))
                .isInstanceOfSatisfying(DevicePlanner.Unplaceable.class, u -> assertThat(u.reason()).contains("32000 MB"));
    }

    @Test
    void shouldExplainWhyNothingFits() {
        assertThat(planner.choose(List.of(), new Demand("cls", 0, false, null)))
                .isEqualTo(new DevicePlanner.Unplaceable("no gateway is online"));
        assertThat(planner.choose(List.of(gw("a", true, List.of("det"), 0, 0, 0)), new Demand("cls", 0, false, null)))
                .isEqualTo(new DevicePlanner.Unplaceable("no online gateway has model cls"));
        assertThat(planner.choose(List.of(gw("a", true, List.of("cls"), 0, 0, 0)), new Demand("cls", 0, false, "b")))
                .isEqualTo(new DevicePlanner.Unplaceable("gateway b is not online"));
    }

    @Test
    void shouldHonourAPinnedDevice() {
        List<Candidate> fleet = List.of(gw("a", true, List.of("cls"), 0, 0, 0), gw("b", true, List.of("cls"), 0, 0, 7));

        assertThat(planner.choose(fleet, new Demand("cls", 0, false, "b"))).isEqualTo(new DevicePlanner.Placed("b"));
    }
}
