package dev.continuum.edge.gateway.testing;

import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.Registrar;
import dev.continuum.edge.fleet.TaskDispatcher;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Topics;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/** The cloud half of the edge link as the platform runs it: registrar, fleet view and task dispatcher on one MQTT session. */
public final class CloudSide implements AutoCloseable {

    /** The operator secret of the tests; a secured broker's access is derived from it ({@link #SECRET}). */
    public static final String SECRET = "test operator secret";

    public final DeviceCredentials credentials;
    public final MqttLink link;
    public final Fleet fleet;
    public final TaskDispatcher dispatcher;

    public CloudSide(Vertx vertx, String host, int port, Topics topics) throws Exception {
        this(vertx, host, port, topics, DeviceCredentials.fromSecret(SECRET, Clock.systemUTC()), null);
    }

    /** The cloud on a secured broker: logs in as the operator, with {@code credentials} shared with the broker. */
    public CloudSide(Vertx vertx, String host, int port, Topics topics, DeviceCredentials credentials, MqttLink.Login login)
            throws Exception {
        this(vertx, host, port, topics, credentials, login, null);
    }

    /** As above, over MQTT with TLS as {@code tls} says (null: plain). */
    public CloudSide(Vertx vertx, String host, int port, Topics topics, DeviceCredentials credentials, MqttLink.Login login,
                     MqttLink.Tls tls) throws Exception {
        this.credentials = credentials;
        link = new MqttLink(vertx, MqttLink.Options.persistent(host, port, TestBrokers.freshId("cloud")).withLogin(login)
                .withTls(tls));
        new Registrar(link, topics, credentials).attach();
        fleet = new Fleet(link, topics, credentials, Clock.systemUTC());
        fleet.attach();
        dispatcher = new TaskDispatcher(link, topics, credentials, Clock.systemUTC(), Duration.ofSeconds(2));
        dispatcher.attach();
        dispatcher.sendFramesTo(fleet::readsFrames);
        link.start().get(10, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        dispatcher.close();
        link.close();
    }
}
