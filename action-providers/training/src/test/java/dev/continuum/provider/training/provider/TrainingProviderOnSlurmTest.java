package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.slurm.SlurmBackend;
import dev.continuum.provider.training.backend.slurm.SlurmSettings;
import dev.continuum.slurm.testing.SlurmHarness;
import java.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The provider process started with {@code --backend slurm} against a real single-node Slurm (SlurmHarness: 4 fake
 * GPUs, partitions gpu-a and gpu-b): jobs go through the Action Provider API to slurmrestd and back.
 */
class TrainingProviderOnSlurmTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    static SlurmHarness slurm;
    static Path work;

    @BeforeAll
    static void cluster() throws Exception {
        slurm = SlurmHarness.shared();
        slurm.cancelAll();
        work = Files.createDirectories(slurm.jobsDir().resolve("provider-" + UUID.randomUUID()));
    }

    static ProviderProcess provider(String name, String... extra) throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("--port", "0", "--host", "127.0.0.1",
                "--work-dir", work.resolve(name).toString(), "--backend", "slurm", "--slurm-url", slurm.restUrl(),
                "--slurm-user", slurm.user(), "--slurm-token-file", slurm.dir().resolve("etc/token").toString(),
                "--slurm-conf", slurm.conf().toString(), "--site", "test-cluster", "--grace-seconds", "20"));
        args.addAll(java.util.List.of(extra));
        return ProviderProcess.start(work.resolve(name + ".log"), slurm.env(), args.toArray(String[]::new));
    }

    static ObjectNode demo(String... trainerArgs) {
        ObjectNode body = TrainingProviderTest.demo(trainerArgs);
        return body.put("time_limit_seconds", 600);
    }

    static JsonNode run(ProviderProcess p, ObjectNode body) throws Exception {
        HttpResponse<String> r = runRaw(p, body);
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201, 202);
        return JSON.readTree(r.body());
    }

    static HttpResponse<String> runRaw(ProviderProcess p, ObjectNode body) throws Exception {
        ObjectNode req = JSON.createObjectNode().put("request_id", UUID.randomUUID().toString());
        req.set("body", body);
        return HTTP.send(HttpRequest.newBuilder(URI.create(p.url() + "/run"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(req.toString()))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    static JsonNode status(ProviderProcess p, String id) throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(p.url() + "/" + id + "/status")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    static JsonNode await(ProviderProcess p, String id, Duration limit, Predicate<JsonNode> done) throws Exception {
        try {
            return Awaitility.await("action " + id + " to hold the awaited condition").atMost(limit)
                    .pollInterval(Duration.ofMillis(250)).until(() -> status(p, id), done);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + "\nprovider log:\n" + p.log(), e);
        }
    }

    @Test
    void aJobRunsToSucceededOnSlurmThroughTheProvidersApi() throws Exception {
        try (ProviderProcess p = provider("succeeds", "--partitions", "gpu-a,gpu-b")) {
            String id = run(p, demo("--steps", "120", "--step-millis", "100", "--checkpoint-every", "40").put("partition", "gpu-b")
                    .put("gpus_max", 2)).path("action_id").asText();
            JsonNode running = await(p, id, Duration.ofSeconds(120),
                    st -> st.path("details").path("state").asText().equals("running")
                            && st.path("details").path("placement").has("gpu_ids"));
            assertThat(running.path("details").path("backend").asText()).isEqualTo("slurm");
            assertThat(running.path("details").path("placement").path("partition").asText()).isEqualTo("gpu-b");
            assertThat(running.path("details").path("placement").path("site").asText()).isEqualTo("test-cluster");
            assertThat(running.path("details").path("placement").path("gpu_ids").size()).isEqualTo(2);
            String slurmJob = running.path("details").path("backend_job").asText();
            assertThat(slurm.run("squeue", "-h", "-o", "%i %P %T")).contains("gpu-b").contains("RUNNING");

            JsonNode done = await(p, id, Duration.ofSeconds(180), st -> st.path("status").asText().equals("SUCCEEDED"));
            JsonNode d = done.path("details");
            assertThat(d.path("progress").path("step").asInt()).isEqualTo(120);
            assertThat(d.path("checkpoints").path("count").asInt()).isPositive();
            assertThat(Path.of(d.path("output_location").asText()).resolve("model.onnx")).isNotEmptyFile();
            assertThat(slurmJob).isNotBlank();
        }
    }

    /** In-process with test callers, since operator routes need the admin role and the process runs without Keycloak. */
    @Test
    void anOperatorMigratesARunningJobFromGpuAToGpuBAndItResumesAtTheStepAfterItsCheckpoint() throws Exception {
        SlurmBackend backend = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                slurm.dir().resolve("etc/token"), "test-cluster").withSlurmConf(slurm.conf()), Clock.systemUTC());
        try (TrainingProviderTest.Served s = new TrainingProviderTest.Served(backend, work.resolve("migrate"))) {
            String id = TrainingProviderTest.run(s, demo("--steps", "400", "--step-millis", "50", "--checkpoint-every", "1000")
                    .put("partition", "gpu-a").put("gpus_max", 1)).path("action_id").asText();
            TrainingProviderTest.await(s, id, st -> st.path("details").path("progress").path("step").asInt() >= 20);

            String url = s.url + "/" + id + "/migrate";
            assertThat(TrainingProviderTest.post(url, JSON.createObjectNode().put("partition", "gpu-b"), "alice",
                    "continuum-user").statusCode()).isEqualTo(403);
            HttpResponse<String> unknown = TrainingProviderTest.post(url, JSON.createObjectNode().put("partition", "gpu-z"),
                    "ops", "continuum-admin");
            assertThat(unknown.statusCode()).isEqualTo(400);
            assertThat(unknown.body()).contains("/partition", "unknown partition gpu-z", "gpu-a, gpu-b");
            assertThat(TrainingProviderTest.post(url, JSON.createObjectNode().put("partition", "gpu-a"), "ops",
                    "continuum-admin").statusCode()).isEqualTo(409);

            HttpResponse<String> moved = TrainingProviderTest.post(url, JSON.createObjectNode().put("partition", "gpu-b"),
                    "ops", "continuum-admin");
            assertThat(moved.statusCode()).as(moved.body()).isEqualTo(202);
            assertThat(JSON.readTree(moved.body()).path("state").asText()).isEqualTo("migrating");

            JsonNode there = awaitLong(s, id, st -> st.path("details").path("attempt").asInt() == 2
                    && st.path("details").path("state").asText().equals("running"));
            assertThat(there.path("details").path("placement").path("partition").asText()).isEqualTo("gpu-b");
            JsonNode move = there.path("details").path("history").get(0);
            assertThat(move.path("kind").asText()).isEqualTo("migrated");
            assertThat(move.path("from").path("partition").asText()).isEqualTo("gpu-a");
            assertThat(move.path("to").path("partition").asText()).isEqualTo("gpu-b");
            long saved = there.path("details").path("checkpoints").path("last_step").asLong();
            assertThat(saved).isGreaterThanOrEqualTo(20);

            JsonNode done = awaitLong(s, id, st -> st.path("status").asText().equals("SUCCEEDED"));
            assertThat(done.path("details").path("progress").path("step").asInt()).isEqualTo(400);
            Path jobDir = work.resolve("migrate/work").resolve(id);
            String second = Files.readString(jobDir.resolve("slurm-" + id + "-a2.out"));
            assertThat(second).contains("resumed from " + Checkpoints.name(saved) + " (step " + saved + ")");
            // no step repeated: the second run's first step is the one after its checkpoint
            assertThat(second.lines().filter(l -> l.startsWith("CONTINUUM_PROGRESS")).findFirst().orElseThrow())
                    .startsWith("CONTINUUM_PROGRESS step=" + (saved + 1) + " ");
        }
    }

    @Test
    void whileSlurmrestdIsDownTheActionWaitsSayingWhyAndRunsOnceItIsBack() throws Exception {
        SlurmBackend backend = new SlurmBackend(SlurmSettings.of(URI.create(slurm.restUrl()), slurm.user(),
                slurm.dir().resolve("etc/token"), "test-cluster").withSlurmConf(slurm.conf())
                .withRetries(1, Duration.ofMillis(100)), Clock.systemUTC());
        try (TrainingProviderTest.Served s = new TrainingProviderTest.Served(backend, work.resolve("down"))) {
            slurm.stopSlurmrestd();
            String id;
            try {
                id = TrainingProviderTest.run(s, demo("--steps", "200", "--step-millis", "20", "--checkpoint-every", "20")
                        .put("partition", "gpu-a").put("gpus_max", 1)).path("action_id").asText();
                JsonNode waiting = TrainingProviderTest.await(s, id,
                        st -> st.path("details").path("message").asText().contains("cannot be reached to submit"));
                assertThat(waiting.path("status").asText()).isEqualTo("ACTIVE");
                assertThat(waiting.path("details").path("state").asText()).isEqualTo("queued");
                assertThat(waiting.path("details").path("message").asText()).contains("Slurm at " + slurm.restUrl()
                        + " is unavailable", "retrying");
            } finally {
                slurm.startSlurmrestd();
            }
            JsonNode running = awaitLong(s, id, st -> st.path("details").path("state").asText().equals("running")
                    && st.path("details").path("progress").path("step").asInt() > 0);
            assertThat(running.path("details").path("attempt").asInt()).isEqualTo(1);

            // down again while it runs: the status says so, the job goes on in Slurm and is followed once it is back
            slurm.stopSlurmrestd();
            try {
                TrainingProviderTest.await(s, id, st -> st.path("details").path("message").asText()
                        .contains("slurm cannot be reached, retrying"));
            } finally {
                slurm.startSlurmrestd();
            }
            JsonNode done = awaitLong(s, id, st -> st.path("status").asText().equals("SUCCEEDED"));
            assertThat(done.path("details").path("attempt").asInt()).isEqualTo(1);
            assertThat(done.path("details").path("progress").path("step").asInt()).isEqualTo(200);
        }
    }

    private static JsonNode awaitLong(TrainingProviderTest.Served s, String id, Predicate<JsonNode> done) throws Exception {
        return Awaitility.await("action " + id + " to hold the awaited condition").atMost(Duration.ofSeconds(180))
                .pollInterval(Duration.ofMillis(250)).until(() -> TrainingProviderTest.status(s, id), done);
    }

    @Test
    void aPartitionTheProviderWasNotGivenIsRefusedAsUnknown() throws Exception {
        try (ProviderProcess p = provider("subset", "--partitions", "gpu-a")) {
            HttpResponse<String> r = runRaw(p, demo().put("partition", "gpu-b"));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(400);
            assertThat(r.body()).contains("/body/partition", "gpu-b");
        }
    }
}
