package dev.continuum.provider.inference.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.gateway.inference.ModelRepository;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.inference.EdgeCloud;
import dev.continuum.provider.inference.ServedInferenceProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Inference round trip on loopback; prints numbers, asserts nothing. Run with
 * {@code mvn -B -q -o -pl action-providers/inference -am test -Dtest=InferenceRoundTripBench -Dsurefire.failIfNoSpecifiedTests=false -Dcontinuum.bench=true}
 * (add {@code -Dbench.n=2000} for more samples). Stages, same model and input (1x3x48x192 float32):
 * <ol>
 *   <li>raw: {@code OrtSession.run} through {@link dev.continuum.edge.gateway.inference.OnnxModel}, in process;</li>
 *   <li>mqtt: cloud dispatcher → broker → gateway (spool, ONNX, outbox) → broker → cloud, one at a time, with
 *       durability BROKER and DISK (ADR 0009), with binary frames and with JSON + base64;</li>
 *   <li>http: POST /run to the provider → MQTT → gateway → back → push callback received.</li>
 * </ol>
 */
class InferenceRoundTripBench {

    @Test
    void measure() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("continuum.bench"), "benchmark: run with -Dcontinuum.bench=true");
        int n = Integer.getInteger("bench.n", 1000);
        Path model = TestModels.ocrClassifier();
        Path dir = Files.createTempDirectory("inference-bench");
        float[] image = TestModels.image(1, 1);
        Tensor input = Tensor.compact(TestModels.CLS_SHAPE, image);

        // 1. raw ONNX Runtime
        double[] raw = new double[n];
        try (ModelRepository repo = new ModelRepository(dir.resolve("raw-models"), true)) {
            String digest = repo.install(model);
            try (ModelRepository.Lease lease = repo.acquire(digest)) {
                for (int i = 0; i < 200; i++) {
                    lease.model().run(TestModels.CLS_SHAPE, image);
                }
                for (int i = 0; i < n; i++) {
                    long t = System.nanoTime();
                    lease.model().run(TestModels.CLS_SHAPE, image);
                    raw[i] = (System.nanoTime() - t) / 1e6;
                }
                System.out.println("[bench] execution provider: " + lease.model().executionProvider());
            }
        }
        report("raw ONNX Runtime run", raw);

        Brokers.Broker broker = TestBrokers.shared();
        Vertx vertx = Vertx.vertx();
        Topics topics = TestBrokers.freshTopics();
        DeviceCredentials credentials = DeviceCredentials.fromSecret("bench secret", Clock.systemUTC());
        EdgeCloud cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("bench-cloud"), topics,
                credentials, Clock.systemUTC());
        cloud.start().get(10, TimeUnit.SECONDS);
        report("bare MQTT echo: task-sized frame out, 300 B back (no gateway)",
                echo(vertx, broker, topics, Wire.encode(new TaskMessage("echo", "ocr-cls", Tensor.framed(TestModels.CLS_SHAPE, image),
                        null, Instant.now().plusSeconds(60).toString(), null)), n));
        record Variant(String name, GatewayConfig.Durability durability, boolean frames) {}
        for (Variant v : new Variant[] {
                new Variant("durability=broker (default), binary frames", GatewayConfig.Durability.BROKER, true),
                new Variant("durability=disk (sync each task), binary frames", GatewayConfig.Durability.DISK, true),
                new Variant("durability=broker, JSON + base64", GatewayConfig.Durability.BROKER, false)}) {
            String id = TestBrokers.freshId("bench-" + v.durability().name().toLowerCase() + (v.frames() ? "-frames" : "-json"));
            GatewayConfig cfg = GatewayConfig.of(id, broker.host(), broker.port(), dir.resolve(id), credentials.bootstrapToken(id))
                    .withTopics(topics).withHeartbeat(Duration.ofSeconds(1), 10).withDurability(v.durability())
                    .withSpoolLimits(TaskSpool.Limits.defaults()).withGpus(List::of);
            cloud.dispatcher().sendFramesTo(device -> v.frames());
            Tensor sent = v.frames() ? Tensor.framed(TestModels.CLS_SHAPE, image) : input;
            try (EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC())) {
                gw.models().deploy("ocr-cls", "1", gw.models().install(model));
                gw.start().get(10, TimeUnit.SECONDS);
                Await.until(Duration.ofSeconds(10), () -> gw.credential().isPresent());
                double[] rtt = new double[n];
                double[] onDevice = new double[n];
                for (int i = -200; i < n; i++) {
                    TaskMessage task = new TaskMessage(id + "-" + i, "ocr-cls", sent, null,
                            Instant.now().plusSeconds(60).toString(), null);
                    long t = System.nanoTime();
                    ResultMessage r = cloud.dispatcher().send(id, task).get(30, TimeUnit.SECONDS);
                    if (i == -1) {
                        gw.stageTimes().clear(); // the profile covers the measured tasks, not the warm-up
                    }
                    if (i >= 0) {
                        rtt[i] = (System.nanoTime() - t) / 1e6;
                        onDevice[i] = r.inferenceMs();
                    }
                }
                report("MQTT round trip, " + v.name(), rtt);
                report("  of which ONNX run on the gateway", onDevice);
                double[] overhead = new double[n];
                for (int i = 0; i < n; i++) {
                    overhead[i] = rtt[i] - onDevice[i];
                }
                report("  gateway+link overhead (rtt - on-device ONNX)", overhead);
                System.out.println("[bench]   gateway stages, median ms: " + gw.stageTimes().medianMillis());
            }
        }

        // 3. through the provider over HTTP with push completion
        String id = TestBrokers.freshId("bench-http");
        GatewayConfig cfg = GatewayConfig.of(id, broker.host(), broker.port(), dir.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics).withHeartbeat(Duration.ofMillis(500), 10).withGpus(List::of);
        cloud.dispatcher().sendFramesTo(cloud.fleet()::readsFrames);
        Map<String, CompletableFuture<Long>> callbacks = new ConcurrentHashMap<>();
        HttpServer server = ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx),
                router -> router.post("/cb").handler(rc -> {
                    callbacks.computeIfAbsent(rc.request().getHeader("X-Continuum-Action-Id"), k -> new CompletableFuture<>())
                            .complete(System.nanoTime());
                    rc.response().setStatusCode(204).end();
                }));
        String url = ServedInferenceProvider.base(server);
        HttpClient http = HttpClient.newHttpClient();
        try (EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC())) {
            gw.models().deploy("ocr-cls", "1", gw.models().install(model));
            gw.start().get(10, TimeUnit.SECONDS);
            Await.until(Duration.ofSeconds(10), () -> cloud.fleet().usable().stream().anyMatch(d -> d.deviceId().equals(id)));
            ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls");
            body.set("input", Wire.mapper().valueToTree(input));
            body.putObject("constraints").put("device", id);
            int m = Math.max(100, n / 3);
            double[] e2e = new double[m];
            for (int i = -50; i < m; i++) {
                ObjectNode doc = Wire.mapper().createObjectNode().put("request_id", "bench-" + i);
                doc.set("body", body);
                long t = System.nanoTime();
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(ServedInferenceProvider.url(server) + "/run"))
                        .header("Content-Type", "application/json").header("X-Continuum-Callback", url + "/cb")
                        .POST(HttpRequest.BodyPublishers.ofString(doc.toString())).build(), HttpResponse.BodyHandlers.ofString());
                String actionId = Wire.mapper().readTree(r.body()).get("action_id").asText();
                long done = callbacks.computeIfAbsent(actionId, k -> new CompletableFuture<>()).get(30, TimeUnit.SECONDS);
                if (i >= 0) {
                    e2e[i] = (done - t) / 1e6;
                }
            }
            report("HTTP /run -> MQTT -> gateway -> ONNX -> push callback", e2e);
        }
        cloud.close();
        vertx.close();
    }

    /**
     * The floor under the MQTT round trip: the same two broker hops with the same payload sizes, between
     * two clients of this JVM that do nothing else (QoS 1, as the edge link). What the round trip costs
     * beyond this and the ONNX run is the gateway's and the cloud side's own work.
     */
    private static double[] echo(Vertx vertx, Brokers.Broker broker, Topics topics, byte[] request, int n) throws Exception {
        String req = topics.root() + "/bench/echo/request";
        String rep = topics.root() + "/bench/echo/reply";
        byte[] reply = new byte[300];
        var responder = new dev.continuum.edge.protocol.mqtt.MqttLink(vertx, dev.continuum.edge.protocol.mqtt.MqttLink.Options
                .persistent(broker.host(), broker.port(), TestBrokers.freshId("echo-responder")).withCleanSession(true));
        var requester = new dev.continuum.edge.protocol.mqtt.MqttLink(vertx, dev.continuum.edge.protocol.mqtt.MqttLink.Options
                .persistent(broker.host(), broker.port(), TestBrokers.freshId("echo-requester")).withCleanSession(true));
        java.util.concurrent.atomic.AtomicReference<CompletableFuture<Void>> answer = new java.util.concurrent.atomic.AtomicReference<>();
        responder.subscribe(req, 1, m -> {
            m.ack();
            responder.publish(rep, reply, false);
        });
        requester.subscribe(rep, 1, m -> {
            m.ack();
            answer.get().complete(null);
        });
        responder.start().get(10, TimeUnit.SECONDS);
        requester.start().get(10, TimeUnit.SECONDS);
        Thread.sleep(200); // subscriptions settle
        double[] ms = new double[n];
        for (int i = -200; i < n; i++) {
            CompletableFuture<Void> f = new CompletableFuture<>();
            answer.set(f);
            long t = System.nanoTime();
            requester.publish(req, request, false);
            f.get(10, TimeUnit.SECONDS);
            if (i >= 0) {
                ms[i] = (System.nanoTime() - t) / 1e6;
            }
        }
        requester.close();
        responder.close();
        return ms;
    }

    private static void report(String what, double[] ms) {
        double[] s = ms.clone();
        Arrays.sort(s);
        System.out.printf("[bench] %-55s n=%d p50=%.3f ms p99=%.3f ms max=%.3f ms%n", what, s.length,
                s[(int) (s.length * 0.50)], s[Math.min(s.length - 1, (int) (s.length * 0.99))], s[s.length - 1]);
    }

    private static final class List {
        static java.util.List<dev.continuum.edge.protocol.GpuInfo> of() {
            return java.util.List.of();
        }
    }
}
