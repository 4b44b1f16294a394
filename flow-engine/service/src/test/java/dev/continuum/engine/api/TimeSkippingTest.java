package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.TimeSkipper;
import dev.continuum.flow.run.RunStatus;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** Runs that wait in engine time (Wait, Retry backoff, an Action's WaitTime) finish without waiting in real time. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TimeSkippingTest {

    /** Slack for the engine's own work between a wake-up being due and the turn that handles it. */
    private static final Duration SLACK = Duration.ofSeconds(5);

    @Inject
    TimeSkipper timeSkipper;

    @Test
    void shouldShowAWeekBetweenWaitStartAndEndWhenTheFlowWaitsSevenDays() {
        String runId = Flows.start(Flows.publish("""
                {"StartAt":"Week","States":{"Week":{"Type":"Wait","Seconds":604800,"Next":"After"},
                 "After":{"Type":"Pass","Result":"woke","ResultPath":"$.state","End":true}}}"""), "{}");

        assertThat(timeSkipper.runUntilDone(runId)).isEqualTo(RunStatus.SUCCEEDED);

        Duration waited = Duration.between(time(runId, "WaitStarted", 0), time(runId, "WaitCompleted", 0));
        assertThat(waited).isBetween(Duration.ofDays(7), Duration.ofDays(7).plus(SLACK));
        Flows.run(runId).body("details.output.state", equalTo("woke"));
    }

    @Test
    void shouldWaitEachBackoffDelayBeforeTheNextAttemptWhenAnActionIsRetried() {
        // The sleep provider refuses a negative duration (HTTP 400): every attempt fails with ActionUnableToRun.
        String runId = Flows.start(Flows.publish("""
                {"StartAt":"Nap","States":{"Nap":{"Type":"Action","ActionUrl":"%s","Parameters":{"seconds":-1},
                 "Retry":[{"ErrorEquals":["ActionUnableToRun"],"IntervalSeconds":60,"BackoffRate":2,"MaxAttempts":3}],
                 "End":true}}}""".formatted(Flows.provider("sleep"))), "{}");

        assertThat(timeSkipper.runUntilDone(runId)).isEqualTo(RunStatus.FAILED);

        List<Duration> gaps = new ArrayList<>();
        for (int attempt = 1; attempt <= 3; attempt++) {
            gaps.add(Duration.between(time(runId, "ActionStarted", attempt - 1), time(runId, "ActionStarted", attempt)));
        }
        assertThat(gaps.get(0)).isBetween(Duration.ofSeconds(60), Duration.ofSeconds(60).plus(SLACK));
        assertThat(gaps.get(1)).isBetween(Duration.ofSeconds(120), Duration.ofSeconds(120).plus(SLACK));
        assertThat(gaps.get(2)).isBetween(Duration.ofSeconds(240), Duration.ofSeconds(240).plus(SLACK));
        Flows.run(runId).body("details.error", equalTo("ActionUnableToRun"));
    }

    @Test
    void shouldFailWithActionTimeoutWhenTheActionOutlivesItsWaitTime() {
        String runId = Flows.start(Flows.publish("""
                {"StartAt":"Long","States":{"Long":{"Type":"Action","ActionUrl":"%s","Parameters":{"seconds":2678400},
                 "WaitTime":3600,"End":true}}}""".formatted(Flows.provider("sleep"))), "{}");

        assertThat(timeSkipper.runUntilDone(runId)).isEqualTo(RunStatus.FAILED);

        Flows.run(runId).body("details.error", equalTo("ActionTimeout"))
                .body("details.cause", containsString("WaitTime of 3600 seconds"));
        Duration ran = Duration.between(time(runId, "ActionStarted", 0), time(runId, "ActionFailed", 0));
        assertThat(ran).isBetween(Duration.ofHours(1), Duration.ofHours(1).plus(SLACK));
    }

    /** Engine time of the {@code nth} (from 0) log entry with this code. */
    private static Instant time(String runId, String code, int nth) {
        JsonPath log = given().when().get("/runs/" + runId + "/log?limit=500").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> entries = log.getList("entries.findAll { it.code == '" + code + "' }");
        assertThat(entries).as("%s entries in the log of run %s", code, runId).hasSizeGreaterThan(nth);
        return Instant.parse((String) entries.get(nth).get("time"));
    }
}
