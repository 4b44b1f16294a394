package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.testing.TestDatabase;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import dev.continuum.provider.training.core.TrainingScheduler;
import dev.continuum.provider.training.demo.DemoTrainerTest;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The provider over HTTP with its PostgreSQL store and the local backend: bad input, operator-only
 * routes, and a restart that finds the job again and finishes it from its checkpoint. The caller
 * comes from test headers (the JWT resolver is the SDK's, tested there).
 */
class TrainingProviderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final String BASE = "/providers/training";
    @TempDir
    static Path dir;
    static TestDatabase db;

    @BeforeAll
    static void database() throws Exception {
        db = TestDatabase.create("training_");
    }

    @AfterAll
    static void dropDatabase() throws Exception {
        db.close();
    }

    /** One provider process: Vert.x, the provider, the backend; closing it kills the jobs' processes like a crash. */
    static final class Served implements AutoCloseable {
        final Vertx vertx = Vertx.vertx();
        final TrainingBackend backend;
        final TrainingProvider provider;
        final String url;

        Served() throws Exception {
            this(new LocalBackend(LocalBackendConfig.detect(2).withSlots(2)), dir);
        }

        Served(TrainingBackend backend, Path dir) throws Exception {
            this.backend = backend;
            CallerResolver callers = rc -> {
                String who = rc.request().getHeader("X-Test-Caller");
                String roles = rc.request().getHeader("X-Test-Roles");
                return who == null ? Caller.ANONYMOUS : Caller.of(who, roles == null ? Set.of() : Set.of(roles.split(",")));
            };
            provider = new TrainingProvider(l -> new TrainingScheduler(backend, "priority", Clock.systemUTC(), l,
                    dir.resolve("work")), new AllowedRoots(List.of(dir.resolve("data"))), Duration.ofSeconds(5),
                    Duration.ofMillis(100));
            Router router = Router.router(vertx);
            new OperatorRoutes(provider, callers, "continuum-admin").mount(router, BASE);
            ActionProviderServer.mount(router, BASE, provider, ProviderServerOptions.of(vertx)
                    .withCallerResolver(callers).withStore(db == null ? new dev.continuum.provider.server.FileActionStore(dir.resolve("actions"))
                            : new dev.continuum.provider.server.PostgresActionStore(db.url(), "postgres", "", "training_actions",
                                    "training-test", Duration.ofSeconds(15))));
            HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            url = "http://127.0.0.1:" + server.actualPort() + BASE;
        }

        @Override
        public void close() throws Exception {
            provider.close();
            backend.close();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    static ObjectNode demo(String... trainerArgs) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode cmd = body.putArray("command");
        DemoTrainerTest.command(trainerArgs).forEach(cmd::add);
        return body.put("gpus_max", 1).put("time_limit_seconds", 600);
    }

    static HttpResponse<String> post(String url, JsonNode body, String caller, String roles) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body == null ? "" : body.toString()));
        if (caller != null) {
            b.header("X-Test-Caller", caller);
        }
        if (roles != null) {
            b.header("X-Test-Roles", roles);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode run(Served s, ObjectNode body) throws Exception {
        ObjectNode req = JSON.createObjectNode().put("request_id", UUID.randomUUID().toString());
        req.set("body", body);
        HttpResponse<String> r = post(s.url + "/run", req, "alice", null);
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201, 202);
        return JSON.readTree(r.body());
    }

    static JsonNode status(Served s, String id) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(s.url + "/" + id + "/status"))
                .header("X-Test-Caller", "alice").build(), HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    static JsonNode await(Served s, String id, Predicate<JsonNode> done) throws Exception {
        return Awaitility.await("action " + id + "'s status to hold the awaited condition").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).until(() -> status(s, id), done);
    }

    @Test
    void badInputIsRefusedWithTheFieldNamed() throws Exception {
        try (Served s = new Served()) {
            assertRefused(s, demo().put("gpus_max", 8), "/body/gpus_max", "partition local has 2");
            assertRefused(s, demo().put("partition", "a100-big"), "/body/partition", "unknown partition a100-big");
            assertRefused(s, demo().put("checkpoint_location", "/etc/cron.d"), "/body/checkpoint_location",
                    "outside the allowed roots");
            assertRefused(s, demo().put("checkpoint_location", "ok/../../escape"), "/body/checkpoint_location", "..");
            assertRefused(s, demo().put("time_limit_seconds", -5), "/body/time_limit_seconds", "");
        }
    }

    private static void assertRefused(Served s, ObjectNode body, String pointer, String says) throws Exception {
        ObjectNode req = JSON.createObjectNode().put("request_id", UUID.randomUUID().toString());
        req.set("body", body);
        HttpResponse<String> r = post(s.url + "/run", req, "alice", null);
        assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
        JsonNode problem = JSON.readTree(r.body());
        assertThat(problem.path("errors").findValuesAsText("pointer")).as(r.body()).contains(pointer);
        assertThat(r.body()).contains(says);
    }

    @Test
    void onlyOperatorsMayPreemptOrResizeAndAPreemptedJobFinishesAfterAProviderRestart() throws Exception {
        String id;
        try (Served s = new Served()) {
            id = run(s, demo("--steps", "150", "--step-millis", "20", "--checkpoint-every", "10")
                    .put("elastic", true).put("gpus_min", 1)).path("action_id").asText();
            await(s, id, st -> st.path("details").path("progress").path("step").asInt() >= 25);

            assertThat(post(s.url + "/" + id + "/preempt", null, "alice", "continuum-user").statusCode()).isEqualTo(403);
            assertThat(post(s.url + "/" + id + "/preempt", null, null, null).statusCode()).isEqualTo(403);
            HttpResponse<String> badGpus = post(s.url + "/" + id + "/resize", JSON.createObjectNode().put("gpus", 9),
                    "ops", "continuum-admin");
            assertThat(badGpus.statusCode()).isEqualTo(400);
            assertThat(badGpus.body()).contains("/gpus");
            HttpResponse<String> preempt = post(s.url + "/" + id + "/preempt", null, "ops", "continuum-admin");
            assertThat(preempt.statusCode()).as(preempt.body()).isEqualTo(202);
            assertThat(JSON.readTree(preempt.body()).path("state").asText()).isEqualTo("checkpointing");

            JsonNode resumed = await(s, id, st -> st.path("details").path("attempt").asInt() == 2
                    && st.path("details").path("state").asText().equals("running"));
            assertThat(resumed.path("details").path("history").get(0).path("kind").asText()).isEqualTo("preempted");
            assertThat(resumed.path("details").path("checkpoints").path("count").asInt()).isPositive();
        }
        // the provider is gone (its job's processes killed with it); a new one finds the job in PostgreSQL
        try (Served s = new Served()) {
            JsonNode done = await(s, id, st -> st.path("status").asText().equals("SUCCEEDED"));
            JsonNode d = done.path("details");
            assertThat(d.path("state").asText()).isEqualTo("succeeded");
            assertThat(d.path("attempt").asInt()).isEqualTo(3);
            assertThat(d.path("progress").path("step").asInt()).isEqualTo(150);
            assertThat(d.path("placement").path("gpu_ids").size()).isEqualTo(1);
            assertThat(Path.of(d.path("output_location").asText()).resolve("model.onnx")).exists();
        }
    }

    static HttpResponse<String> get(String url, String caller, String roles) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        if (caller != null) {
            b.header("X-Test-Caller", caller);
        }
        if (roles != null) {
            b.header("X-Test-Roles", roles);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void operatorsListEveryJobWithItsStatePlacementOwnerAndStartOthersAreRefused() throws Exception {
        try (Served s = new Served()) {
            String id = run(s, demo("--steps", "400", "--step-millis", "20", "--checkpoint-every", "10"))
                    .path("action_id").asText();
            await(s, id, st -> st.path("details").path("state").asText().equals("running"));

            assertThat(get(s.url + "/jobs", "alice", "continuum-user").statusCode()).isEqualTo(403);
            assertThat(get(s.url + "/jobs", null, null).statusCode()).isEqualTo(403);
            HttpResponse<String> listed = get(s.url + "/jobs", "ops", "continuum-admin");

            assertThat(listed.statusCode()).as(listed.body()).isEqualTo(200);
            JsonNode job = JSON.readTree(listed.body()).path("jobs").get(0);
            assertThat(job.path("id").asText()).isEqualTo(id);
            assertThat(job.path("state").asText()).isEqualTo("running");
            assertThat(job.path("partition").asText()).isNotEmpty();
            assertThat(job.path("site").asText()).isNotEmpty();
            assertThat(job.path("gpus").asInt()).isEqualTo(1);
            assertThat(job.path("owner").asText()).isEqualTo("alice");
            assertThat(java.time.Instant.parse(job.path("started").asText())).isBefore(java.time.Instant.now());
            post(s.url + "/" + id + "/cancel", null, "alice", null);
        }
    }
}
