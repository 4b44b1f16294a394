package dev.continuum.provider.inference;

import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.Registrar;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.placement.api.PlannerJson;
import dev.continuum.placement.api.Replacement;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.logging.Logger;

/**
 * The cloud's end of the edge link on one persistent MQTT session (stable client id, so results
 * published while the provider restarts wait at the broker): registrar, fleet view, task dispatcher.
 */
public final class EdgeCloud implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(EdgeCloud.class.getName());

    private final MqttLink link;
    private final Fleet fleet;
    private final TaskDispatcher dispatcher;
    private final DeviceCredentials credentials;
    private final Topics topics;

    public EdgeCloud(Vertx vertx, String host, int port, String clientId, Topics topics, DeviceCredentials credentials,
                     Clock clock) {
        this(vertx, host, port, clientId, null, topics, credentials, clock);
    }

    /** Logs in to the broker with {@code login} (null: anonymous), e.g. as the operator of a secured broker (ADR 0011). */
    public EdgeCloud(Vertx vertx, String host, int port, String clientId, MqttLink.Login login, Topics topics,
                     DeviceCredentials credentials, Clock clock) {
        this(vertx, host, port, clientId, login, null, topics, credentials, clock);
    }

    /** As above, over MQTT with TLS as {@code tls} says (null: plain; docs/edge.md "Encrypted links"). */
    public EdgeCloud(Vertx vertx, String host, int port, String clientId, MqttLink.Login login, MqttLink.Tls tls,
                     Topics topics, DeviceCredentials credentials, Clock clock) {
        this.credentials = credentials;
        this.topics = topics;
        this.link = new MqttLink(vertx, MqttLink.Options.persistent(host, port, clientId).withLogin(login).withTls(tls));
        new Registrar(link, topics, credentials).attach();
        this.fleet = new Fleet(link, topics, credentials, clock);
        fleet.attach();
        this.dispatcher = new TaskDispatcher(link, topics, credentials, clock, Duration.ofSeconds(3));
        dispatcher.attach();
        dispatcher.sendFramesTo(fleet::readsFrames);
    }

    /** This end's MQTT client id: the name the planner pushes this provider's re-placements to. */
    public String clientId() {
        return link.options().clientId();
    }

    /**
     * Re-placements the planner pushes to this provider ({@code <root>/placement/<client id>/replaced}, QoS 1 on this
     * persistent session, so one sent while the link is down arrives when it is back), to {@code to}. A message that
     * is not one is dropped with a warning: the slow poll still finds the decision.
     */
    public void onReplacement(Consumer<Replacement> to) {
        link.subscribe(topics.replacements(clientId()), 1, m -> {
            try {
                to.accept(PlannerJson.mapper().readValue(m.payload(), Replacement.class));
            } catch (java.io.IOException | RuntimeException e) {
                LOG.warning("ignored a re-placement push that is not one on " + m.topic() + ": " + e.getMessage());
            }
            m.ack(); // kept in memory only: if this provider stops before using it, the next instance polls
        });
    }

    public CompletableFuture<Void> start() {
        return link.start();
    }

    public Fleet fleet() {
        return fleet;
    }

    public TaskDispatcher dispatcher() {
        return dispatcher;
    }

    public DeviceCredentials credentials() {
        return credentials;
    }

    @Override
    public void close() {
        dispatcher.close();
        link.close();
    }
}
