package dev.continuum.provider.inference;

import dev.continuum.edge.broker.BrokerAccess;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.identity.DeviceCredentials;
import dev.continuum.edge.identity.RevocationLog;
import dev.continuum.edge.messaging.MqttLink;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar continuum-inference-provider-*-runner.jar --port 8093 --broker 127.0.0.1:1883
 * [--base-path /providers/inference] [--topic-root continuum] [--client-id continuum-inference]
 * [--embedded-broker] [--state-dir DIR]}; the operator secret comes from {@code CONTINUUM_EDGE_SECRET}.
 * With {@code --state-dir} actions and device revocations are kept on disk there and survive a restart;
 * without it, in memory. {@code --state-dir DIR --revoke-device ID} (or {@code --reinstate-device ID})
 * records a revocation for the provider running on DIR and exits.
 * {@code --bootstrap-token DEVICE} prints the bootstrap token to install on that device and exits;
 * {@code --broker-password} prints the operator's MQTT password (user {@value BrokerAccess#OPERATOR}) and exits.
 *
 * <p>The embedded broker admits only the operator and devices with a genuine credential or bootstrap token,
 * each confined to its own topics (ADR 0011); the provider logs in to it as the operator. Against another
 * broker it logs in with {@code --mqtt-username}/{@code CONTINUUM_MQTT_USERNAME} and
 * {@code CONTINUUM_MQTT_PASSWORD} when set, else anonymously.
 */
public final class InferenceProviderMain {

    private InferenceProviderMain() {}

    public static void main(String[] args) throws Exception {
        int port = 8093;
        String broker = "127.0.0.1:1883";
        String basePath = "/providers/inference";
        String root = "continuum";
        String clientId = "continuum-inference";
        String tokenFor = null;
        boolean embedded = false;
        Path stateDir = null;
        String revoke = null;
        String reinstate = null;
        boolean printBrokerPassword = false;
        String mqttUser = System.getenv("CONTINUUM_MQTT_USERNAME");
        String mqttPassword = System.getenv("CONTINUUM_MQTT_PASSWORD");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--broker" -> broker = args[++i];
                case "--base-path" -> basePath = args[++i];
                case "--topic-root" -> root = args[++i];
                case "--client-id" -> clientId = args[++i];
                case "--bootstrap-token" -> tokenFor = args[++i];
                case "--embedded-broker" -> embedded = true;
                case "--broker-password" -> printBrokerPassword = true;
                case "--mqtt-username" -> mqttUser = args[++i];
                case "--state-dir" -> stateDir = Path.of(args[++i]);
                case "--revoke-device" -> revoke = args[++i];
                case "--reinstate-device" -> reinstate = args[++i];
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (revoke != null || reinstate != null) {
            if (stateDir == null) {
                System.err.println("--revoke-device and --reinstate-device need the provider's --state-dir");
                System.exit(2);
            }
            // the running provider re-reads the log within 2 s
            new RevocationLog(stateDir.resolve("revocations")).append(revoke != null ? "device" : "reinstate",
                    Topics.checkId(revoke != null ? revoke : reinstate));
            System.out.println((revoke != null ? "revoked " + revoke : "reinstated " + reinstate) + " in " + stateDir);
            return;
        }
        String secret = System.getenv("CONTINUUM_EDGE_SECRET");
        if (secret == null || secret.length() < 16) {
            System.err.println("set CONTINUUM_EDGE_SECRET (at least 16 characters): it signs device credentials");
            System.exit(2);
        }
        DeviceCredentials credentials = DeviceCredentials.fromSecret(secret, Clock.systemUTC());
        if (tokenFor != null) {
            System.out.println(credentials.bootstrapToken(tokenFor));
            return;
        }
        if (printBrokerPassword) {
            System.out.println(DeviceCredentials.brokerPassword(secret));
            return;
        }
        if (stateDir != null) {
            credentials.persistRevocations(new RevocationLog(stateDir.resolve("revocations")));
        }
        String host = broker.substring(0, broker.lastIndexOf(':'));
        int brokerPort = Integer.parseInt(broker.substring(broker.lastIndexOf(':') + 1));
        Topics topics = new Topics(root);
        MqttLink.Login login = mqttUser != null && mqttPassword != null ? MqttLink.Login.of(mqttUser, mqttPassword) : null;
        Brokers.EmbeddedBroker ownBroker = null;
        if (embedded && !Brokers.answers(host, brokerPort)) {
            ownBroker = Brokers.EmbeddedBroker.startSecured(brokerPort, null, BrokerAccess.forSecret(topics, credentials, secret));
            System.out.println("embedded MQTT broker on " + host + ":" + brokerPort + " (login required, devices confined to their topics)");
        }
        if (embedded && login == null) {
            login = MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(secret));
        }
        Vertx vertx = Vertx.vertx();
        EdgeCloud cloud = new EdgeCloud(vertx, host, brokerPort, clientId, login, topics, credentials, Clock.systemUTC());
        cloud.start().get(30, TimeUnit.SECONDS);
        Brokers.EmbeddedBroker secured = ownBroker;
        vertx.setPeriodic(2000, t -> vertx.executeBlocking(() -> {
            credentials.reloadRevocations();
            if (secured != null) {
                secured.disconnectDevices(credentials.revokedDevices()); // cut off, and refused when they come back
            }
            return null;
        }, false));
        // CONTINUUM_AUTH_ENABLED=true: only tokens for continuum-provider-inference with scope actions:inference (docs/auth.md).
        ProviderServerOptions options = ProviderServerOptions.of(vertx).withCallerResolver(JwtCallerResolver.fromEnvironment(
                System.getenv(), "continuum-provider-inference", "actions:inference"));
        if (stateDir != null) {
            // actions survive a provider restart; unfinished ones are resumed at mount (ADR 0006)
            options = options.withStore(new FileActionStore(stateDir.resolve("actions")));
        }
        Router router = Router.router(vertx);
        ActionProviderServer.mount(router, basePath,
                new InferenceProvider(cloud.fleet(), cloud.dispatcher(), new DevicePlanner(), Clock.systemUTC()),
                options);
        // the count lets `up` (and operators) wait until gateways have registered and reported in
        router.get("/health").handler(rc -> rc.json(new io.vertx.core.json.JsonObject().put("status", "UP")
                .put("devices_online", cloud.fleet().usable().size())));
        vertx.createHttpServer().requestHandler(router).listen(port).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        System.out.println("inference provider on http://127.0.0.1:" + port + basePath + " (broker " + broker + ")");
    }
}
