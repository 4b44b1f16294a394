package dev.continuum.engine.adapters.messaging;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.engine.app.triggers.EdgeLink;
import dev.continuum.engine.app.triggers.FileIngest;
import dev.continuum.engine.app.triggers.FileWatchList;
import dev.continuum.engine.config.EngineConfig;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import org.jboss.logging.Logger;

import java.util.UUID;

/**
 * The engine's link to the edge broker for file triggers, on the same MQTT client the edge uses
 * ({@link MqttLink}: persistent session, QoS 1, reconnect with backoff). It subscribes to every gateway's
 * {@code files} topic and acknowledges a message only once its outcome is committed (a crash before that is a
 * redelivery: the same single run); it publishes each gateway's watch list retained.
 */
@ApplicationScoped
public class EdgeFileLink implements EdgeLink {

    private static final Logger LOG = Logger.getLogger(EdgeFileLink.class);

    private final EngineConfig config;
    private final Vertx vertx;
    private final Instance<FileIngest> ingest;
    private final Instance<FileWatchList> watchLists;
    private final Topics topics;
    private volatile MqttLink link;

    public EdgeFileLink(EngineConfig config, Vertx vertx, Instance<FileIngest> ingest, Instance<FileWatchList> watchLists) {
        this.config = config;
        this.vertx = vertx;
        this.ingest = ingest;
        this.watchLists = watchLists;
        this.topics = new Topics(config.edge().topicRoot());
    }

    void start(@Observes StartupEvent started) {
        if (config.edge().broker().isEmpty()) {
            return;
        }
        String broker = config.edge().broker().get();
        // one persistent session per engine instance: what arrives while it is down waits at the broker
        String clientId = "continuum-engine-files-" + config.instanceId().orElse(UUID.randomUUID().toString().substring(0, 8));
        MqttLink.Options options = MqttLink.Options.persistent(broker, clientId, MqttLink.Tls.trusting(
                config.edge().caFile().orElse(null), config.edge().tlsCheckServerName(), "continuum.edge.ca-file"));
        if (config.edge().username().isPresent()) {
            options = options.withLogin(MqttLink.Login.of(config.edge().username().get(), config.edge().password().orElse("")));
        }
        link = new MqttLink(vertx, options);
        link.subscribe(topics.allFiles(), 1, this::received);
        link.onConnection(new MqttLink.ConnectionListener() {
            @Override public void connected(boolean sessionPresent) {
                watchLists.get().refreshAll().subscribe().with(ok -> { },
                        e -> LOG.warnf("publishing the gateways' watch lists failed: %s", e.getMessage()));
            }
        });
        link.start();
        LOG.infof("file triggers: edge broker %s, topic root %s", broker, topics.root());
    }

    void stop(@Observes ShutdownEvent stopping) {
        if (link != null) {
            link.close();
        }
    }

    private void received(MqttLink.Incoming message) {
        String gateway = topics.deviceIdOf(message.topic());
        FileEvent event;
        try {
            event = Wire.decode(message.payload(), FileEvent.class);
        } catch (RuntimeException e) {
            LOG.warnf("dropped a malformed file event from %s: %s", gateway, e.getMessage());
            message.ack();
            return;
        }
        ingest.get().take(gateway, event).subscribe().with(outcomes -> message.ack(),
                // not acknowledged: the broker sends it again when this session reconnects
                e -> LOG.errorf("file event %s from %s not taken: %s", event.eventId(), gateway, e.getMessage()));
    }

    @Override
    public boolean configured() {
        return config.edge().broker().isPresent();
    }

    @Override
    public Uni<Void> publishWatches(String gateway, FileWatch.Watches watches) {
        MqttLink current = link;
        if (current == null) {
            return Uni.createFrom().voidItem();
        }
        return Uni.createFrom().completionStage(() -> current.publish(topics.watches(gateway), Wire.encode(watches), true))
                .onFailure().invoke(e -> LOG.warnf("watch list for %s not published now (%s); sent again on reconnect",
                        gateway, e.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
