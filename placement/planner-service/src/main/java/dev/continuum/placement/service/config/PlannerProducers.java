package dev.continuum.placement.service.config;

import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.CarbonCsvReader;
import dev.continuum.placement.core.planner.Planner;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.trace.RecordingPlanner;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlacementLog;
import dev.continuum.placement.service.app.PlannerService;
import dev.continuum.placement.service.app.ReplacementPush;
import dev.continuum.placement.service.app.ReportedDecisions;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;

/** Wires the pure planner into the service: configuration in, one {@link PlannerService} out. */
public class PlannerProducers {

    @Produces
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @Singleton
    LiveInventory inventory(PlannerSettings settings) {
        TopologyFile topology = settings.topology().map(Path::of).map(TopologyFile::read).orElse(TopologyFile.empty());
        return new LiveInventory(topology.inventory(), topology.edgeLinks());
    }

    @Produces
    @Singleton
    GpuHistory gpuHistory(PlannerSettings settings) {
        return new GpuHistory(settings.gpuHistorySamples());
    }

    @Produces
    @Singleton
    PlannerService service(PlannerSettings settings, LiveInventory inventory, PlacementLog log, Clock clock,
                           ReplacementPush push) {
        OnlinePlanner online = new OnlinePlanner(config(settings));
        Planner planner = settings.trace().map(t -> (Planner) new RecordingPlanner(online, open(Path.of(t)))).orElse(online);
        return new PlannerService(planner, inventory, log, clock, push);
    }

    @Produces
    @Singleton
    ReportedDecisions reported(PlacementLog log) {
        return new ReportedDecisions(log);
    }

    static final String CHOOSE_BY = "continuum.placement.inference.choose-by";

    /**
     * The planner's configuration from the service's keys: the policy, how inference sites are ranked, and the carbon
     * series when one is named. A value the planner refuses is named with its key, so the start-up error says which
     * line of the configuration to fix.
     */
    public static PlannerConfig config(PlannerSettings settings) {
        PlannerConfig config = PlannerConfig.DEFAULT.withPolicy(settings.policy());
        String chooseBy = settings.inference().chooseBy();
        try {
            config = config.withChooseBy(chooseBy);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(CHOOSE_BY + "=" + chooseBy + ": expected mean or a quantile p50 … p99",
                    e);
        }
        return settings.carbon().map(Path::of).map(CarbonCsvReader::read).map(config::withCarbon).orElse(config);
    }

    private static Writer open(Path trace) {
        try {
            if (trace.getParent() != null) {
                Files.createDirectories(trace.getParent());
            }
            return Files.newBufferedWriter(trace, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the planner trace " + trace, e);
        }
    }
}
