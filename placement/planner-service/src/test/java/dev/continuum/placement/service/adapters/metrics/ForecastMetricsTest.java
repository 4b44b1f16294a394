package dev.continuum.placement.service.adapters.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.Restored;
import dev.continuum.placement.service.app.DecisionQuery;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlacementLog;
import dev.continuum.placement.service.app.PlannerService;
import dev.continuum.placement.service.config.TopologyFile;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Path;
import dev.continuum.testkit.VirtualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The planner's forecasts reach its metrics: rate, sMAPE and coverage per model, site and horizon. */
class ForecastMetricsTest {

    /** The planner service's neighbour: its log, kept in memory. */
    private static final class MemoryLog implements PlacementLog {
        private final Map<String, StoredRequest> requests = new HashMap<>();
        private final List<DecisionRecord> decisions = new ArrayList<>();

        @Override
        public boolean addRequest(PlacementRequest request, String runId, String owner, Instant at) {
            return requests.putIfAbsent(request.id(), new StoredRequest(request, runId == null ? "" : runId, at, owner,
                    false)) == null;
        }

        @Override
        public boolean addReportedRequest(PlacementRequest request, String runId, Instant at) {
            return requests.putIfAbsent(request.id(), new StoredRequest(request, runId == null ? "" : runId, at, null, true))
                    == null;
        }

        @Override
        public Optional<StoredRequest> request(String requestId) {
            return Optional.ofNullable(requests.get(requestId));
        }

        @Override
        public List<DecisionRecord> append(List<DecisionRecord> added) {
            List<DecisionRecord> out = new ArrayList<>();
            for (DecisionRecord d : added) {
                DecisionRecord kept = new DecisionRecord(decisions.size() + 1, d.requestId(), d.runId(), d.kind(), d.at(),
                        d.cause(), d.decision());
                decisions.add(kept);
                out.add(kept);
            }
            return out;
        }

        @Override
        public List<DecisionRecord> decisionsOf(String requestId) {
            return decisions.stream().filter(d -> d.requestId().equals(requestId)).toList();
        }

        @Override
        public List<DecisionRecord> list(DecisionQuery query) {
            return List.copyOf(decisions);
        }

        @Override
        public void markFinished(String requestId, Instant at) {
        }

        @Override
        public List<Restored> unfinished() {
            return List.of();
        }
    }

    @Test
    void shouldExposeEachSeriesForecastAndItsRecentErrorAsGauges() {
        TopologyFile topology = TopologyFile.read(Path.of("src/test/resources/test-topology.json"));
        // on a minute: every minute holds two of the jobs
        VirtualClock clock = VirtualClock.stoppedAt(Instant.ofEpochMilli(1_780_000_020_000L));
        PlannerService planner = new PlannerService(new OnlinePlanner(PlannerConfig.DEFAULT),
                new LiveInventory(topology.inventory(), topology.edgeLinks()), new MemoryLog(), clock);
        // two resnet jobs a minute for 40 minutes
        for (int i = 0; i < 80; i++) {
            planner.place(PlacementRequest.inference("job-" + i, "resnet", Demand.wholeGpus(0), List.of(), 0), "run-1");
            clock.advance(java.time.Duration.ofSeconds(30));
            planner.tick();
        }
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ForecastMetrics metrics = new ForecastMetrics(planner, registry);

        metrics.refresh();

        Gauge rate = registry.find("continuum.placement.forecast.rate").tag("model", "resnet").tag("site", "*")
                .tag("horizon", "300s").gauge();
        assertThat(rate).as("the 5-minute forecast over all sites").isNotNull();
        assertThat(rate.value() * 60).as("jobs per minute expected").isCloseTo(2, org.assertj.core.data.Offset.offset(0.01));
        Gauge smape = registry.find("continuum.placement.forecast.smape").tag("model", "resnet").tag("site", "*")
                .tag("horizon", "60s").gauge();
        assertThat(smape.value()).as("a steady rate is forecast exactly").isZero();
        assertThat(registry.find("continuum.placement.forecast.coverage").tag("model", "resnet").tag("site", "*")
                .tag("horizon", "60s").gauge().value()).isEqualTo(1.0);
        assertThat(registry.find("continuum.placement.forecast.rate").tag("model", "resnet").gauges())
                .as("one series per site the jobs went to, and the total, at three horizons").hasSizeGreaterThanOrEqualTo(6);
    }
}
