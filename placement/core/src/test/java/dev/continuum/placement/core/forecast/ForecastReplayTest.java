package dev.continuum.placement.core.forecast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.World;
import dev.continuum.placement.core.planner.trace.RecordingPlanner;
import dev.continuum.placement.core.planner.trace.Replayer;
import java.io.BufferedReader;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The planner forecasts the arrivals it places; a recorded planner session replayed forecasts the same. */
class ForecastReplayTest {
    private static final long START = 1_780_000_000_000L;

    @Test
    void shouldForecastTheSameArrivalRatesWhenARecordedPlannerSessionIsReplayed() {
        Inventory inventory = new World().gateway("gw-1", "T4", 0, "resnet").gateway("gw-2", "T4", 0, "resnet")
                .link("gw-1", "gw-2", 1, 5).inventory();
        OnlinePlanner live = new OnlinePlanner(PlannerConfig.DEFAULT);
        StringWriter trace = new StringWriter();
        RecordingPlanner planner = new RecordingPlanner(live, trace);
        planner.update(inventory, START);
        Random random = new Random(42);
        int placed = 0;
        for (int second = 0; second < 90 * 60; second += 1 + random.nextInt(6)) {
            long now = START + second * 1000L;
            PlacementRequest r = PlacementRequest.inference("i" + second, "resnet", Demand.wholeGpus(1), List.of(), 0);
            for (PlacementDecision d : planner.place(r, now).decisions()) {
                if (d instanceof PlacementDecision.Placed p) {
                    placed++;
                    planner.observe(new Observation.JobCompleted(p.requestId(), p.chosen().site(), "resnet", 30, now + 40,
                            5, 0));
                }
            }
            if (second % 30 == 0) {
                planner.update(inventory, now);
            }
        }

        Replayer.Result replayed = Replayer.replay(new BufferedReader(new StringReader(trace.toString())));

        assertThat(placed).isGreaterThan(1000);
        assertThat(replayed.identical()).isTrue();
        List<Forecast> forecasts = live.forecasts();
        assertThat(forecasts).extracting(f -> f.series().toString()).contains("resnet@*", "resnet@gw-1");
        assertThat(forecasts).allSatisfy(f -> assertThat(f.scored()).isPositive());
        Forecast all = forecasts.stream().filter(f -> f.series().site().equals("*") && f.horizonBuckets() == 5)
                .findFirst().orElseThrow();
        // one job every 3.5 s on average
        assertThat(all.rate()).isBetween(0.2, 0.4);
        assertThat(replayed.forecasts()).isEqualTo(forecasts);
    }
}
