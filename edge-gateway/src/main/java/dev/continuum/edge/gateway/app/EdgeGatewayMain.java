package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.telemetry.OtlpTraces;
import io.opentelemetry.api.OpenTelemetry;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * {@code java -jar continuum-edge-gateway-*-runner.jar --device-id gw-1 --broker 127.0.0.1:1883
 * --state-dir /var/lib/continuum/gw-1 [--data-dir DIR] --bootstrap-token TOKEN [--model name@version=path.onnx]...
 * [--topic-root continuum] [--heartbeat-seconds 5] [--keep-alive-seconds 10] [--ack-timeout-seconds 60] [--max-batch 16]
 * [--gpu-poll-seconds 5] [--durability broker|disk] [--mqtt-password P] [--role edge|datacenter] [--broker-ca ca.crt]}. {@code --broker
 * mqtts://host:port} connects with TLS, trusting the CA of {@code --broker-ca} (or {@code CONTINUUM_MQTT_CA_FILE}; neither:
 * the JVM's trust store) and checking the broker's name unless {@code CONTINUUM_MQTT_TLS_CHECK_SERVER_NAME=false}. {@code --role datacenter} runs the same
 * runtime as the datacenter's inference pool: its heartbeats say so and the planner sees a datacenter site. The gateway logs in to the broker as its
 * device id with its device credential (or bootstrap token); {@code --mqtt-password} (or {@code CONTINUUM_MQTT_PASSWORD})
 * sends a fixed password instead, for an operator's own broker with a password file (docs/edge.md).
 * A device never hosts the broker: the cloud does (the inference provider's {@code --embedded-broker}, ADR 0011).
 */
public final class EdgeGatewayMain {

    private EdgeGatewayMain() {}

    public static void main(String[] args) throws Exception {
        String deviceId = null;
        String broker = "127.0.0.1:1883";
        Path stateDir = null;
        Path dataDir = null;
        String bootstrap = System.getenv("CONTINUUM_BOOTSTRAP_TOKEN");
        String brokerPassword = System.getenv("CONTINUUM_MQTT_PASSWORD");
        String brokerCa = null;
        String root = "continuum";
        int heartbeat = 5;
        int keepAlive = 10;
        Duration ackTimeout = GatewayConfig.DEFAULT_LINK_ACK_TIMEOUT;
        int maxBatch = 16;
        Duration gpuPoll = GatewayConfig.DEFAULT_GPU_POLL;
        String role = Heartbeat.ROLE_EDGE;
        GatewayConfig.Durability durability = GatewayConfig.Durability.BROKER;
        java.util.List<String> models = new java.util.ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--device-id" -> deviceId = args[++i];
                case "--broker" -> broker = args[++i];
                case "--state-dir" -> stateDir = Path.of(args[++i]);
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--bootstrap-token" -> bootstrap = args[++i];
                case "--mqtt-password" -> brokerPassword = args[++i];
                case "--broker-ca" -> brokerCa = args[++i];
                case "--topic-root" -> root = args[++i];
                case "--heartbeat-seconds" -> heartbeat = Integer.parseInt(args[++i]);
                case "--keep-alive-seconds" -> keepAlive = Integer.parseInt(args[++i]);
                case "--ack-timeout-seconds" -> ackTimeout = Duration.ofSeconds(Integer.parseInt(args[++i]));
                case "--max-batch" -> maxBatch = Integer.parseInt(args[++i]);
                case "--gpu-poll-seconds" -> gpuPoll = Duration.ofSeconds(Integer.parseInt(args[++i]));
                case "--model" -> models.add(args[++i]);
                case "--role" -> role = args[++i];
                case "--durability" -> durability = GatewayConfig.Durability.valueOf(args[++i].toUpperCase(java.util.Locale.ROOT));
                default -> usage("unknown option " + args[i]);
            }
        }
        if (!Heartbeat.ROLES.contains(role)) {
            usage("--role must be one of " + Heartbeat.ROLES);
        }
        if (deviceId == null) {
            usage("--device-id is required");
        }
        if (stateDir == null) {
            stateDir = Path.of(System.getProperty("user.home"), ".continuum", "edge", deviceId);
        }
        MqttLink.Options link;
        try {
            link = MqttLink.Options.persistent(broker, deviceId,
                    MqttLink.Tls.fromFlagOrEnvironment(brokerCa, "--broker-ca", System.getenv()));
        } catch (IllegalArgumentException e) {
            usage(e.getMessage());
            return;
        }
        String host = link.host();
        int port = link.port();
        GatewayConfig config = GatewayConfig.of(deviceId, host, port, stateDir, bootstrap)
                .withBrokerTls(link.tls())
                .withTopics(new Topics(root))
                .withHeartbeat(Duration.ofSeconds(heartbeat), keepAlive)
                .withMaxBatch(maxBatch)
                .withGpuPolling(gpuPoll)
                .withDurability(durability)
                .withBrokerPassword(brokerPassword)
                .withRole(role)
                .withLinkAckTimeout(ackTimeout)
                .withDataDir(dataDir != null ? dataDir : stateDir.resolve("data"));
        // task spans over OTLP/HTTP when the OTEL_* settings ask for them (docs/operations.md "Traces"), else a no-op
        OpenTelemetry telemetry = OtlpTraces.installGlobal("continuum-edge-gateway");
        Vertx vertx = Vertx.vertx();
        EdgeGateway gateway = new EdgeGateway(config, vertx, Clock.systemUTC(), telemetry);
        for (String m : models) {
            int eq = m.indexOf('=');
            int at = m.indexOf('@');
            if (eq < 0 || at < 0 || at > eq) {
                usage("--model wants name@version=path.onnx, got " + m);
            }
            String digest = gateway.models().install(Path.of(m.substring(eq + 1)));
            gateway.models().deploy(m.substring(0, at), m.substring(at + 1, eq), digest);
            System.out.println("model " + m.substring(0, eq) + " = " + digest);
        }
        gateway.start();
        System.out.println((role.equals("edge") ? "edge gateway " : "datacenter inference pool ") + deviceId + " -> " + link.address() + " (state in " + stateDir + ")");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            gateway.close();
            vertx.close();
            stopped.countDown();
        }));
        stopped.await();
    }

    private static void usage(String problem) {
        System.err.println(problem);
        System.err.println("usage: --device-id ID [--broker host:port|mqtts://host:port] [--broker-ca CA.crt] [--state-dir DIR] [--data-dir DIR (input_ref root; default STATE/data)] [--bootstrap-token T] "
                + "[--model name@version=file.onnx]... [--topic-root R] [--heartbeat-seconds N] "
                + "[--keep-alive-seconds N] [--ack-timeout-seconds N] [--max-batch N] [--gpu-poll-seconds N] [--durability broker|disk] [--mqtt-password P] [--role edge|datacenter]");
        System.exit(2);
    }
}
