package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PlannerTestProfile;
import dev.continuum.provider.client.FileCarrier;
import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.local.LocalBackend;
import dev.continuum.provider.training.backend.local.LocalBackendConfig;
import dev.continuum.provider.training.core.JobState;
import dev.continuum.provider.training.core.TrainingJob;
import dev.continuum.provider.training.core.TrainingRequest;
import dev.continuum.provider.training.core.TrainingScheduler;
import dev.continuum.provider.training.core.TrainingSite;
import dev.continuum.provider.training.planner.DecisionReporter;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The training provider's scheduler on its real local backend (one GPU slot, real child processes), its in-process
 * planner deciding, and its {@link DecisionReporter} sending each decision to this planner signed with the realm's
 * reporter service account: the log lists each training job with what the provider's planner decided — the second
 * job queued behind the first, then placed when the first finished — and a planner out of reach delays the log, never
 * the training.
 */
@QuarkusTest
@TestProfile(PlannerTestProfile.class)
class TrainingProviderDecisionsTest {

    @TestHTTPResource("/")
    URI planner;

    @Test
    void shouldListEachTrainingJobWithTheDecisionsOfTheProvidersOwnPlanner() throws Exception {
        String site = "lab-" + UUID.randomUUID().toString().substring(0, 6);
        try (DecisionReporter reporter = new DecisionReporter(new PlannerClient(planner, reporterToken()), 100,
                Duration.ofMillis(200))) {
            TrainingScheduler scheduler = scheduler(site, reporter);
            String first = site + "-a";
            String second = site + "-b";
            reporter.runOf(first, "run-" + site);

            scheduler.admit(TrainingJob.queued(first, request("sleep 1")));
            scheduler.admit(TrainingJob.queued(second, request("sleep 1")));
            awaitFinished(scheduler, first, second);

            Awaitility.await("the provider's decisions in the planner's log").atMost(Duration.ofSeconds(30))
                    .until(() -> log(second).getList("placements.status").size() == 2);
            JsonPath a = log(first);
            assertThat(a.getList("placements.status", String.class)).containsExactly("placed");
            assertThat(a.getString("placements[0].site")).isEqualTo(site + "/local");
            assertThat(a.getString("placements[0].runId")).isEqualTo("run-" + site);
            assertThat(a.getString("placements[0].cause")).isEqualTo("reported");
            JsonPath b = log(second);
            assertThat(b.getList("placements.status", String.class)).containsExactly("queued", "placed");
            assertThat(b.getList("placements.site", String.class)).containsOnly(site + "/local");
            assertThat(b.getString("placements[0].decision.reasons[0]")).isNotBlank();
            assertThat(reporter.dropped()).isZero();
        }
    }

    @Test
    void shouldTrainOnWhileThePlannerIsOutOfReachAndFillInItsLogWhenItAnswers() throws Exception {
        String site = "lab-" + UUID.randomUUID().toString().substring(0, 6);
        AtomicBoolean away = new AtomicBoolean(true);
        Supplier<String> token = reporterToken();
        // the planner's identity provider is away at first: no token, so no report gets through
        Supplier<String> flaky = () -> {
            if (away.get()) {
                throw new IllegalStateException("Keycloak cannot be reached");
            }
            return token.get();
        };
        try (DecisionReporter reporter = new DecisionReporter(new PlannerClient(planner, flaky), 100,
                Duration.ofMillis(200))) {
            TrainingScheduler scheduler = scheduler(site, reporter);
            String job = site + "-a";

            scheduler.admit(TrainingJob.queued(job, request("sleep 1")));
            awaitFinished(scheduler, job);

            assertThat(scheduler.job(job).orElseThrow().state()).isEqualTo(JobState.SUCCEEDED);
            assertThat(reporter.waiting()).as("the placed decision waits for the planner").isEqualTo(1);
            given().auth().oauth2(KeycloakResource.token("admin")).get("/placements/" + job).then().statusCode(404);

            away.set(false);
            Awaitility.await("the waiting decision in the planner's log").atMost(Duration.ofSeconds(30))
                    .until(() -> log(job).getList("placements.status").size() == 1);
            assertThat(log(job).getString("placements[0].status")).isEqualTo("placed");
            assertThat(reporter.sent()).isEqualTo(1);
        }
    }

    /** The realm's service account for reporting to the planner, as the provider's main signs its reports. */
    static Supplier<String> reporterToken() {
        ServiceAccountToken account = new ServiceAccountToken(new TokenClient(KeycloakServer.shared().issuer()),
                ClientCredentials.confidential("continuum-planner-reporter", "continuum-planner-reporter-local-secret"),
                Clock.systemUTC());
        return account::current;
    }

    static TrainingScheduler scheduler(String site, DecisionReporter reporter) throws BackendException, java.io.IOException {
        LocalBackend backend = new LocalBackend(new LocalBackendConfig(site, "local", List.of("0"), Optional.empty(), 4,
                8192).withSlots(1));
        Path work = Files.createTempDirectory("training-decisions");
        return new TrainingScheduler(List.of(new TrainingSite(site, backend, backend.inventory(), Path.of("/"),
                Optional.empty(), work.resolve("jobs"))), FileCarrier.NONE, "priority",
                dev.continuum.placement.core.policy.MovePolicy.Costs.DEFAULT, Clock.systemUTC(), job -> { }, reporter);
    }

    /** One GPU, a shell command that ends by itself. */
    static TrainingRequest request(String script) throws java.io.IOException {
        Path dir = Files.createTempDirectory("training-job");
        return new TrainingRequest(List.of("sh", "-c", script), Optional.empty(), List.of(), Map.of(), List.of(), 1, 1,
                Optional.empty(), 1, 0, Duration.ofMinutes(5), dir.resolve("ckpt"), dir.resolve("out"), 0,
                Optional.empty(), false, Optional.of("local"), Duration.ofSeconds(5));
    }

    /** Polls as the provider does until every job has finished. */
    static void awaitFinished(TrainingScheduler scheduler, String... jobs) {
        Awaitility.await("training jobs " + String.join(", ", jobs) + " to finish").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(100)).pollInSameThread().until(() -> {
                    scheduler.poll();
                    return java.util.Arrays.stream(jobs).allMatch(j -> scheduler.job(j).orElseThrow().state().finished());
                });
    }

    private static JsonPath log(String job) {
        return given().auth().oauth2(KeycloakResource.token("admin")).get("/placements?kind=training&subject=" + job)
                .then().statusCode(200).extract().jsonPath();
    }
}
