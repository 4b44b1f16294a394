package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.service.adapters.persistence.JdbcSiteReports;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlannerService;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * A planner starting takes back what the one before it knew: the sites backends reported (kept in PostgreSQL) and
 * the jobs the decision log shows running or waiting. Gateways come back by themselves from their retained MQTT
 * statuses and next heartbeats ({@code GatewayFeed}).
 */
@ApplicationScoped
public class PlannerRecovery {

    private static final Logger LOG = Logger.getLogger(PlannerRecovery.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** How many reported sites and unfinished jobs came back, and how long it took. */
    public record Recovered(int sites, int jobs, long millis) {}

    private final JdbcSiteReports reports;
    private final LiveInventory inventory;
    private final PlannerService planner;

    public PlannerRecovery(JdbcSiteReports reports, LiveInventory inventory, PlannerService planner) {
        this.reports = reports;
        this.inventory = inventory;
        this.planner = planner;
    }

    void onStart(@Observes StartupEvent started) {
        Recovered r = recover(reports, inventory, planner);
        LOG.infof("planner restored %d reported sites and %d unfinished jobs from the log in %d ms", r.sites(), r.jobs(),
                r.millis());
    }

    /** What a start does; public so a test can restart a planner over the same database. */
    public static Recovered recover(JdbcSiteReports reports, LiveInventory inventory, PlannerService planner) {
        long start = System.nanoTime();
        int sites = 0;
        for (Map.Entry<String, String> e : reports.all().entrySet()) {
            try {
                PartitionsBody body = JSON.readValue(e.getValue(), PartitionsBody.class);
                inventory.putSite(body.toCluster(), status(body));
                sites++;
            } catch (IOException | RuntimeException bad) {
                LOG.warnf("the kept report of site %s is not usable any more (%s); it comes back when its backend reports",
                        e.getKey(), bad.getMessage());
            }
        }
        int jobs = planner.restore();
        return new Recovered(sites, jobs, (System.nanoTime() - start) / 1_000_000);
    }

    static SiteStatus status(PartitionsBody body) {
        return body.online() == null || body.online() ? SiteStatus.training() : SiteStatus.training().offline();
    }
}
