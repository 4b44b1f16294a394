package dev.continuum.provider.inference;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar continuum-inference-provider-*-runner.jar --port 8093 --broker 127.0.0.1:1883
 * [--base-path /providers/inference] [--topic-root continuum] [--client-id continuum-inference]
 * [--embedded-broker]}; the operator secret comes from {@code CONTINUUM_EDGE_SECRET}.
 * {@code --bootstrap-token DEVICE} prints the bootstrap token to install on that device and exits.
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
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--broker" -> broker = args[++i];
                case "--base-path" -> basePath = args[++i];
                case "--topic-root" -> root = args[++i];
                case "--client-id" -> clientId = args[++i];
                case "--bootstrap-token" -> tokenFor = args[++i];
                case "--embedded-broker" -> embedded = true;
                default -> {
                    System.err.println("unknown option " + args[i]);
                    System.exit(2);
                }
            }
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
        String host = broker.substring(0, broker.lastIndexOf(':'));
        int brokerPort = Integer.parseInt(broker.substring(broker.lastIndexOf(':') + 1));
        if (embedded && !Brokers.answers(host, brokerPort)) {
            Brokers.EmbeddedBroker.start(brokerPort, null);
            System.out.println("embedded MQTT broker on " + host + ":" + brokerPort);
        }
        Vertx vertx = Vertx.vertx();
        EdgeCloud cloud = new EdgeCloud(vertx, host, brokerPort, clientId, new Topics(root), credentials, Clock.systemUTC());
        cloud.start().get(30, TimeUnit.SECONDS);
        Router router = Router.router(vertx);
        ActionProviderServer.mount(router, basePath,
                new InferenceProvider(cloud.fleet(), cloud.dispatcher(), new DevicePlanner(), Clock.systemUTC()),
                ProviderServerOptions.of(vertx));
        router.get("/health").handler(rc -> rc.json(new io.vertx.core.json.JsonObject().put("status", "UP")));
        vertx.createHttpServer().requestHandler(router).listen(port).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        System.out.println("inference provider on http://127.0.0.1:" + port + basePath + " (broker " + broker + ")");
    }
}
