package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.telemetry.testing.DashboardQueries;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;


import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class OperationsApiTest {

    @Test
    void shouldReportReadyWithDatabaseCheck() {
        given().when().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void shouldDescribeTheApiInOpenApi() {
        given().when().get("/q/openapi?format=json").then().statusCode(200)
                .body(containsString("/flows/{flowId}/run"))
                .body(containsString("/runs/{runId}/log"));
    }

    @Test
    void shouldExportTransitionsAndActionLatencyAsPrometheusMetrics() {
        String runId = Flows.start(Flows.publish(RunApiTest.fiveStepFlow()), "{\"message\":\"m\"}");
        Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED");
        given().when().get("/q/metrics").then().statusCode(200)
                .body(containsString("continuum_transitions_total"))
                .body(containsString("continuum_action_call_seconds"))
                .body(containsString("continuum_runs{"));
    }

    @Test
    void shouldCountRunsStartedAndFinishedForRunsPerSecond() {
        double started = sample("continuum_runs_started_total");
        double succeeded = sample("continuum_runs_finished_total{status=\"SUCCEEDED\"}");
        String runId = Flows.start(Flows.publish(FlowApiTest.PASS_FLOW), "{}");
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED");

        assertThat(sample("continuum_runs_started_total")).isGreaterThanOrEqualTo(started + 1);
        assertThat(sample("continuum_runs_finished_total{status=\"SUCCEEDED\"}")).isGreaterThanOrEqualTo(succeeded + 1);
        assertThat(sample("continuum_runs_due")).isGreaterThanOrEqualTo(0);
        assertThat(sample("continuum_runs_due_lag_seconds")).isGreaterThanOrEqualTo(0);
    }

    /**
     * deploy/grafana/continuum.json queries only metrics that exist: every name in the PromQL of its row "Engine" is
     * served here (the planner's row is GatewayFeedTest's).
     */
    @Test
    void shouldServeEveryMetricTheGrafanaDashboardQueries() throws Exception {
        String runId = Flows.start(Flows.publish(RunApiTest.fiveStepFlow()), "{\"message\":\"m\"}");
        Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED");
        Set<String> served = given().when().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0]).collect(Collectors.toSet());

        Set<String> queried = DashboardQueries.metrics(Path.of("../.."), "Engine");
        assertThat(queried).isNotEmpty().contains("continuum_runs_started_total", "continuum_action_call_seconds",
                "continuum_runs_due", "continuum_runs_due_lag_seconds");
        assertThat(served).containsAll(queried);
    }

    private static double sample(String series) {
        return given().when().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(line -> line.startsWith(series + " ") || line.startsWith(series.replace("}", ",")))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .findFirst().orElseThrow(() -> new AssertionError(series + " is not served"));
    }

    @Test
    void shouldRefuseToResumeARunThatIsNotInactive() {
        String runId = Flows.start(Flows.publish(FlowApiTest.PASS_FLOW), "{}");
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED");
        given().when().post("/runs/" + runId + "/resume").then().statusCode(409)
                .contentType("application/problem+json").body("detail", containsString("INACTIVE"));
    }

    @Test
    void shouldAnswerUnknownRunsWith404AndBrokenCancelBodiesWith400() {
        given().when().get("/runs/00000000-0000-0000-0000-000000000000").then().statusCode(404);
        given().when().get("/runs/00000000-0000-0000-0000-000000000000/log").then().statusCode(404);
        String runId = Flows.start(Flows.publish("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":100000,"End":true}}}"""), "{}");
        given().contentType("application/json").body("{not json").when().post("/runs/" + runId + "/cancel")
                .then().statusCode(400).contentType("application/problem+json");
    }

    @Test
    void shouldRefuseAFlowWithTwoStatesOfTheSameName() {
        String body = """
                {"definition":{"StartAt":"A","States":{"A":{"Type":"Pass","End":true},"A":{"Type":"Pass","End":true}}}}""";
        given().contentType("application/json").body(body).when().post("/flows/validate")
                .then().statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("Duplicate field 'A'"));
    }
}
