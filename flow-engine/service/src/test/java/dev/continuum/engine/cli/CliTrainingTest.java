package dev.continuum.engine.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.SignedInCli;
import dev.continuum.engine.support.SignedInCli.Result;
import dev.continuum.engine.support.Tokens;
import dev.continuum.engine.support.TrainingProviderProcess;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code continuum training jobs|preempt|resize|migrate} with the real engine (its {@code /ops/training} relay), the
 * real training provider as its own process (local backend, sign-in on) and real Keycloak: a scientist's run starts a
 * training job, an operator lists and preempts it, the provider's own access rule refuses the scientist.
 */
@QuarkusTest
@TestProfile(CliTrainingTest.WithTrainingProvider.class)
class CliTrainingTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PORT = "cli-test.training-port";
    private static TrainingProviderProcess provider;
    private static Path work;

    public static class WithTrainingProvider extends AuthOn {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("continuum.ops.training-url", providerUrl());
            return config;
        }
    }

    /** The provider's address, fixed before the engine starts (the profile and the test share only system properties). */
    static synchronized String providerUrl() {
        if (System.getProperty(PORT) == null) {
            try (ServerSocket free = new ServerSocket(0)) {
                System.setProperty(PORT, String.valueOf(free.getLocalPort()));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        return "http://127.0.0.1:" + System.getProperty(PORT) + "/providers/training";
    }

    @BeforeAll
    static void startProvider() throws Exception {
        work = Files.createTempDirectory("training-provider-");
        provider = TrainingProviderProcess.start(Integer.parseInt(System.getProperty(PORT)), work);
    }

    @AfterAll
    static void stopProvider() {
        if (provider != null) {
            provider.close();
        }
    }

    /** A run of {@code person} whose one Action state is a long demo training job (1 GPU, elastic, checkpoints often). */
    private static String startTrainingRun(String person) throws IOException {
        Path trainer = provider.trainerScript();
        ObjectNode parameters = JSON.createObjectNode().put("gpus_min", 1).put("gpus_max", 1).put("elastic", true)
                .put("time_limit_seconds", 600);
        ArrayNode command = parameters.putArray("command");
        List.of("/bin/sh", trainer.toString(), "--steps", "100000", "--step-millis", "20", "--checkpoint-every", "10")
                .forEach(command::add);
        ObjectNode train = JSON.createObjectNode().put("Type", "Action").put("ActionUrl", providerUrl()).put("End", true)
                .put("ResultPath", "$.trained").put("WaitTime", 3600);
        train.set("Parameters", parameters);
        ObjectNode definition = JSON.createObjectNode().put("StartAt", "Train");
        definition.putObject("States").set("Train", train);
        SignedInCli cli = SignedInCli.as(person);
        Result deployed = cli.run("deploy", cli.file("train.json", definition.toString()).toString());
        assertThat(deployed.exitCode()).as(deployed.err()).isZero();
        Result started = cli.run("start", deployed.lastLine());
        assertThat(started.exitCode()).as(started.err()).isZero();
        return started.lastLine();
    }

    private static JsonNode listed(SignedInCli operator) throws IOException {
        Result jobs = operator.run("training", "jobs", "--output", "json");
        assertThat(jobs.exitCode()).as(jobs.err()).isZero();
        return JSON.readTree(jobs.out());
    }

    private static JsonNode awaitJob(SignedInCli operator, String wantedState) throws Exception {
        return await("one training job, " + wantedState).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(300))
                .until(() -> listed(operator),
                        jobs -> jobs.path("jobs").size() == 1 && jobs.at("/jobs/0/state").asText().equals(wantedState))
                .path("jobs").get(0);
    }

    @Test
    void shouldListAScientistsTrainingJobForAnOperatorAndPreemptItButRefuseTheScientistAndUnknownJobs() throws Exception {
        String run = startTrainingRun("scientist");
        SignedInCli operator = SignedInCli.as("admin");

        JsonNode job = awaitJob(operator, "running");
        assertThat(job.path("owner").asText()).isEqualTo("scientist");
        assertThat(job.path("gpus").asInt()).isEqualTo(1);
        assertThat(job.path("partition").asText()).isNotEmpty();
        String id = job.path("id").asText();
        Result table = operator.run("training", "jobs");
        assertThat(table.out()).contains("JOB ID").contains(id + "  running").contains("scientist");

        Result preempted = operator.run("training", "preempt", id);
        assertThat(preempted.exitCode()).as(preempted.err()).isZero();
        assertThat(preempted.out()).startsWith(id + " checkpointing").contains("preempt requested");
        JsonNode again = awaitJob(operator, "running");
        assertThat(again.path("attempt").asInt()).isEqualTo(2);

        Result resized = operator.run("training", "resize", id, "--gpus", "9");
        assertThat(resized.exitCode()).isEqualTo(3);
        assertThat(resized.err()).contains("/gpus").contains("gpus must be a whole number from 1 to 2");

        Result unknown = operator.run("training", "preempt", "no-such-job");
        assertThat(unknown.exitCode()).isEqualTo(3);
        assertThat(unknown.err()).contains("No training action no-such-job.");

        Result nowhere = operator.run("training", "migrate", id);
        assertThat(nowhere.exitCode()).isEqualTo(2);
        assertThat(nowhere.err()).contains("--to SITE");

        Result scientist = SignedInCli.as("scientist").run("training", "jobs");
        assertThat(scientist.exitCode()).isEqualTo(3);
        assertThat(scientist.err()).contains("Only operators (role continuum-admin) may list the training jobs.");

        as(Tokens.of("scientist")).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
    }
}
