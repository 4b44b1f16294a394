package dev.continuum.placement.service.adapters.mqtt;

import dev.continuum.edge.broker.BrokerAccess;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.FleetSites;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.placement.service.app.GpuHistory;
import dev.continuum.placement.service.app.LiveInventory;
import dev.continuum.placement.service.app.PlannerService;
import dev.continuum.placement.service.config.PlannerSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.jboss.logging.Logger;

/**
 * Gateways into the live inventory, from the broker the edge link uses: the retained status topic (online, or
 * offline as the last will) and heartbeats, through the fleet view the inference provider uses too. A change the
 * planner can see (up/down, queue, models, GPUs) updates its inventory at once, so a job stranded on a gateway that
 * went away is placed again and logged. After a restart, the retained statuses and the next heartbeats (every few
 * seconds) rebuild the edge part of the inventory.
 */
@ApplicationScoped
public class GatewayFeed {

    private static final Logger LOG = Logger.getLogger(GatewayFeed.class);

    private final PlannerSettings settings;
    private final LiveInventory inventory;
    private final GpuHistory gpuHistory;
    private final PlannerService planner;
    private final Vertx vertx;
    /** Decisions are written to PostgreSQL: never on the MQTT event loop, and one change at a time, in order. */
    private final ExecutorService updates = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "planner-inventory");
        t.setDaemon(true);
        return t;
    });
    private MqttLink link;
    private volatile Fleet fleet;
    private final SiteMetrics siteMetrics;
    private final MqttReplacementPush pushes;

    public GatewayFeed(PlannerSettings settings, LiveInventory inventory, GpuHistory gpuHistory, PlannerService planner,
                       Vertx vertx, MeterRegistry metrics, MqttReplacementPush pushes) {
        this.settings = settings;
        this.pushes = pushes;
        // gateway health for operators: counted from the fleet view at each scrape
        Gauge.builder("continuum.gateways", () -> count(true)).tag("state", "online")
                .description("Edge gateways online (connected and heartbeating) as the planner sees them").register(metrics);
        Gauge.builder("continuum.gateways", () -> count(false)).tag("state", "offline")
                .description("Edge gateways offline (last will, clean stop, or heartbeats stopped)").register(metrics);
        this.inventory = inventory;
        this.gpuHistory = gpuHistory;
        this.planner = planner;
        this.vertx = vertx;
        this.siteMetrics = new SiteMetrics(inventory, gpuHistory, planner, metrics);
    }

    void start(@Observes StartupEvent started) {
        connect();
    }

    /** Subscribes to the gateways' statuses and heartbeats (retained ones arrive at once). */
    public void connect() {
        if (settings.mqttBroker().isEmpty()) {
            LOG.info("no continuum.placement.mqtt-broker: the planner knows only the configured sites");
            return;
        }
        String broker = settings.mqttBroker().get();
        String secret = settings.edgeSecret().orElseThrow(() -> new IllegalStateException(
                "continuum.placement.edge-secret (CONTINUUM_EDGE_SECRET) is needed to trust gateway heartbeats"));
        Topics topics = new Topics(settings.mqttTopicRoot());
        DeviceCredentials credentials = DeviceCredentials.fromSecret(secret, Clock.systemUTC());
        MqttLink.Login login = settings.mqttUsername().isPresent() && settings.mqttPassword().isPresent()
                ? MqttLink.Login.of(settings.mqttUsername().get(), settings.mqttPassword().get())
                : MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(secret));
        link = new MqttLink(vertx, MqttLink.Options.persistent(broker,
                "continuum-planner-" + UUID.randomUUID().toString().substring(0, 8),
                MqttLink.Tls.trusting(settings.mqttCaFile().orElse(null), settings.mqttTlsCheckServerName(),
                        "continuum.placement.mqtt-ca-file"))
                .withCleanSession(true).withLogin(login));
        Fleet fleet = new Fleet(link, topics, credentials, Clock.systemUTC());
        this.fleet = fleet;
        fleet.onChange(device -> updates.execute(() -> changed(device)));
        fleet.attach();
        pushes.attach(link, topics); // re-placements go out on the same link
        link.start();
        LOG.infof("planner inventory: gateways from MQTT at %s (topic root %s)", broker, settings.mqttTopicRoot());
    }

    private long count(boolean online) {
        Fleet current = fleet;
        return current == null ? 0 : current.devices().stream().filter(d -> (d.online() && d.heartbeat() != null) == online).count();
    }

    private void changed(Fleet.Device device) {
        if (device.heartbeat() != null && device.lastHeartbeat() != null) {
            gpuHistory.record(device.deviceId(), new GpuHistory.Sample(device.lastHeartbeat(), device.heartbeat().gpus().stream()
                    .map(g -> new GpuHistory.Gpu(g.index(), g.model(), g.utilizationPercent(), g.memoryUsedMb(), g.memoryTotalMb()))
                    .toList()));
        }
        try {
            boolean changed = inventory.putGateway(FleetSites.cluster(device.deviceId(), device.heartbeat()),
                    FleetSites.status(device, 0));
            siteMetrics.watchSites();
            if (changed) {
                planner.inventoryChanged();
            }
        } catch (RuntimeException e) {
            LOG.error("cannot apply gateway " + device.deviceId() + " to the planner's inventory", e);
        }
    }

    void stop(@Observes ShutdownEvent stopping) {
        disconnect();
    }

    public synchronized void disconnect() {
        if (link != null) {
            link.close();
            link = null;
        }
        updates.shutdownNow();
    }
}
