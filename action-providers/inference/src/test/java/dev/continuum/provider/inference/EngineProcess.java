package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.testing.TestDatabase;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real engine, from its runner jar ({@code flow-engine/service/target/quarkus-app}: the pom makes the reactor
 * build it first), as its own process with sign-in off: these tests are about the edge, not sign-in.
 */
final class EngineProcess implements AutoCloseable {

    private final Process process;
    private final HttpClient http = HttpClient.newHttpClient();
    private final String base;

    private EngineProcess(Process process, int port) {
        this.process = process;
        this.base = "http://127.0.0.1:" + port;
    }

    /** Starts the engine on {@code db}, logging to {@code log}, with {@code env} besides, and waits until it answers. */
    static EngineProcess start(TestDatabase db, int port, Path log, Map<String, String> env) throws Exception {
        Path repo = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (repo != null && !Files.exists(repo.resolve("flow-engine"))) {
            repo = repo.getParent();
        }
        assertThat(repo).as("repository root").isNotNull();
        Path engineJar = repo.resolve("flow-engine/service/target/quarkus-app/quarkus-run.jar");
        assertThat(engineJar).as("the engine must be built before this test (mvn -pl action-providers/inference -am)").exists();
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", engineJar.toString()).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(Map.of("CONTINUUM_DB_HOST", db.host(), "CONTINUUM_DB_PORT", String.valueOf(db.port()),
                "CONTINUUM_DB_NAME", db.name(), "CONTINUUM_DB_USER", "postgres"));
        pb.environment().put("CONTINUUM_AUTH_ENABLED", "false");
        pb.environment().put("QUARKUS_HTTP_PORT", Integer.toString(port));
        pb.environment().putAll(env);
        EngineProcess engine = new EngineProcess(pb.start(), port);
        // generous: on a shared 2-core machine at load 30 the engine took 150 s to start
        boolean up = Await.until(Duration.ofSeconds(300), () -> {
            try {
                return engine.http.send(HttpRequest.newBuilder(URI.create(engine.base + "/flows")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() < 500;
            } catch (Exception e) {
                return false;
            }
        });
        if (!up) {
            engine.close();
        }
        assertThat(up).as("the engine started (see " + log + ")").isTrue();
        return engine;
    }

    /** Publishes a one-Action flow classifying {@code $.image} with ocr-cls@1 at {@code actionUrl} and starts a run. */
    String startClassification(String actionUrl) throws Exception {
        ObjectNode flow = (ObjectNode) Wire.mapper().readTree("""
            {"title": "edge inference", "input_schema": {"type": "object"},
             "definition": {"StartAt": "Classify", "States": {"Classify": {"Type": "Action",
                "ActionUrl": "ACTION_URL", "Parameters": {"model": "ocr-cls@1", "input.$": "$.image"},
                "ResultPath": "$.classified", "WaitTime": 120, "End": true}}}}""".replace("ACTION_URL", actionUrl));
        JsonNode created = post("/flows", flow);
        ObjectNode run = Wire.mapper().createObjectNode();
        run.putObject("body").set("image", Wire.mapper().valueToTree(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(11, 1))));
        return post("/flows/" + created.get("id").asText() + "/run", run).get("run_id").asText();
    }

    /** The run once it is no longer ACTIVE (or as last seen after {@code timeout}). */
    JsonNode awaitFinished(String runId, Duration timeout) {
        JsonNode[] last = new JsonNode[1];
        Await.until(timeout, () -> {
            try {
                last[0] = Wire.mapper().readTree(http.send(HttpRequest.newBuilder(URI.create(base + "/runs/" + runId)).build(),
                        HttpResponse.BodyHandlers.ofString()).body());
                return !last[0].path("status").asText().equals("ACTIVE");
            } catch (Exception e) {
                return false;
            }
        });
        return last[0];
    }

    private JsonNode post(String path, JsonNode body) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 299);
        return Wire.mapper().readTree(r.body());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(20, TimeUnit.SECONDS);
    }
}
