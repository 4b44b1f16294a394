package dev.continuum.provider.transfer.gateway;

import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.telemetry.OtlpTraces;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Runs the device half on an edge device, beside (or inside) the edge gateway:
 * {@code java -cp continuum-transfer-provider-<ver>-runner.jar dev.continuum.provider.transfer.gateway.GatewayStorageMain
 * --device-id gw-1 --root /data/instrument [--broker 127.0.0.1:1883] [--topic-root continuum] [--read-only] [--threads 2]
 * [--bootstrap-token T] [--mqtt-password P] [--broker-ca ca.crt]}. {@code --broker mqtts://host:port} connects with
 * TLS, trusting {@code --broker-ca} (or {@code CONTINUUM_MQTT_CA_FILE}), as the gateway does (docs/edge.md "Encrypted links").
 * It only connects out to the broker, logging in as the device id with {@code --mqtt-password}
 * ({@code CONTINUUM_MQTT_PASSWORD}) or else the device's bootstrap token ({@code CONTINUUM_BOOTSTRAP_TOKEN}),
 * as a broker Continuum starts requires (ADR 0011); with neither, anonymously. Each storage request made inside a
 * trace is a span ({@code storage <op>}) in it, exported as the {@code OTEL_*} settings say (service
 * {@code continuum-gateway-storage}; off without them, docs/operations.md "Traces").
 */
public final class GatewayStorageMain {

    private GatewayStorageMain() {}

    public static void main(String[] args) throws InterruptedException {
        // first: the exporter the OTEL_* settings ask for (docs/operations.md "Traces"); off without them
        OpenTelemetry telemetry = OtlpTraces.installGlobal("continuum-gateway-storage");
        String device = null;
        String broker = System.getenv().getOrDefault("CONTINUUM_MQTT_BROKER", "127.0.0.1:1883");
        String topicRoot = "continuum";
        Path root = null;
        boolean readOnly = false;
        int threads = 2;
        String bootstrap = System.getenv("CONTINUUM_BOOTSTRAP_TOKEN");
        String password = System.getenv("CONTINUUM_MQTT_PASSWORD");
        String brokerCa = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--device-id" -> device = args[++i];
                case "--root" -> root = Path.of(args[++i]);
                case "--broker" -> broker = args[++i];
                case "--topic-root" -> topicRoot = args[++i];
                case "--read-only" -> readOnly = true;
                case "--threads" -> threads = Integer.parseInt(args[++i]);
                case "--bootstrap-token" -> bootstrap = args[++i];
                case "--mqtt-password" -> password = args[++i];
                case "--broker-ca" -> brokerCa = args[++i];
                default -> usage("unknown option " + args[i]);
            }
        }
        if (device == null || root == null) {
            usage("--device-id and --root are required");
        }
        MqttLink.Options link;
        try {
            link = MqttLink.Options.persistent(broker, device,
                    MqttLink.Tls.fromFlagOrEnvironment(brokerCa, "--broker-ca", System.getenv()));
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        GatewayStorageServer server = new GatewayStorageServer(new GatewayStorageServer.Settings(
                link.host(), link.port(), topicRoot, device, root,
                readOnly, threads), login(device, password != null ? password : bootstrap), telemetry, link.tls()).start();
        System.out.println("gateway storage " + device + " serving " + root.toAbsolutePath() + " via " + broker
                + (readOnly ? " (read-only)" : ""));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static MqttLink.Login login(String device, String password) {
        return password == null || password.isBlank() ? null : MqttLink.Login.of(device, password);
    }

    private static void usage(String problem) {
        System.err.println(problem);
        System.err.println("usage: --device-id ID --root DIR [--broker host:port|mqtts://host:port] [--broker-ca CA.crt] [--topic-root continuum] [--read-only] [--threads 2] [--bootstrap-token T] [--mqtt-password P]");
        System.exit(2);
    }
}
