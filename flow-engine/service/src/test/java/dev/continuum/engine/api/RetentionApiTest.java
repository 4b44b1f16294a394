package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

/**
 * Retention (docs/operations.md): a purge releases the runs that finished before its cutoff, record and log, and
 * leaves every run that finished later or is still going; bad cutoffs are 400s naming the field.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RetentionApiTest {

    static final String SUCCEEDS = """
            {"StartAt":"One","States":{"One":{"Type":"Pass","Result":1,"ResultPath":"$.one","End":true}}}""";
    static final String WAITS = """
            {"StartAt":"Hold","States":{"Hold":{"Type":"Wait","Seconds":3600,"End":true}}}""";

    private static Instant finishedAt(String runId) {
        return Instant.parse(Flows.run(runId).extract().path("completion_time"));
    }

    private static void purge(String body, int purgedAtLeast) {
        given().contentType(ContentType.JSON).body(body).when().post("/ops/retention/purge").then().statusCode(200)
                .body("purged", greaterThanOrEqualTo(purgedAtLeast)).body("scope", equalTo("all runs"));
    }

    @Test
    void shouldReleaseRunsFinishedBeforeTheCutoffAndKeepLaterAndActiveOnes() {
        String flow = Flows.publish(SUCCEEDS);
        String finished = Flows.start(flow, "{}");
        Flows.awaitStatus(finished, Duration.ofSeconds(10), "SUCCEEDED");
        String waiting = Flows.start(Flows.publish(WAITS), "{}");
        Flows.awaitStatus(waiting, Duration.ofSeconds(10), "ACTIVE");
        Instant end = finishedAt(finished);

        purge("{\"finished_before\":\"" + end.minusMillis(1) + "\"}", 0);
        Flows.run(finished).statusCode(200);

        purge("{\"finished_before\":\"" + end.plusMillis(1) + "\"}", 1);
        given().when().get("/runs/" + finished).then().statusCode(404);
        given().when().get("/runs/" + finished + "/log").then().statusCode(404);
        Flows.run(waiting).statusCode(200).body("status", equalTo("ACTIVE"));
        given().contentType(ContentType.JSON).body("{\"older_than_days\":0}").when().post("/ops/retention/purge")
                .then().statusCode(200);
        Flows.run(waiting).statusCode(200).body("status", equalTo("ACTIVE"));
    }

    @Test
    void shouldNameTheFieldOfABadCutoff() {
        for (String body : new String[]{"{}", "{\"finished_before\":\"yesterday\"}",
                "{\"finished_before\":\"2026-01-01T00:00:00Z\",\"older_than_days\":3}"}) {
            given().contentType(ContentType.JSON).body(body).when().post("/ops/retention/purge").then().statusCode(400)
                    .contentType("application/problem+json").body("errors.pointer", hasItem("/finished_before"));
        }
        given().contentType(ContentType.JSON).body("{\"older_than_days\":-1}").when().post("/ops/retention/purge").then()
                .statusCode(400).body("errors.pointer", hasItem("/older_than_days"));
        given().contentType(ContentType.JSON).body("{\"older_than_days\":\"ten\"}").when().post("/ops/retention/purge").then()
                .statusCode(400).body("errors.pointer", hasItem("/older_than_days"));
    }

    @Test
    void shouldSayWhatIsKeptWhenNoRetentionIsConfigured() {
        given().when().get("/ops/retention").then().statusCode(200).body("finished_runs", nullValue()).body("every", equalTo("PT1H"));
    }
}
