package dev.continuum.engine.triggers;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.TestClock;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.function.Predicate;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

/**
 * Timer triggers in engine time: the test moves the engine's clock, and the engine's once-a-second tick fires
 * what became due. Every timer test moves the clock only forward, so test order does not matter.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TimerTriggerTest {

    /** A run that stays ACTIVE for an hour of engine time: something to overlap with. */
    private static final String HOUR_LONG = """
            {"StartAt":"Hour","States":{"Hour":{"Type":"Wait","Seconds":3600,"End":true}}}""";
    private static final String FAILS = """
            {"StartAt":"No","States":{"No":{"Type":"Fail","Error":"Broken","Cause":"always"}}}""";

    @Inject
    TestClock clock;

    /** A timer left behind would catch up hours of ticks when the next test moves the clock. */
    @org.junit.jupiter.api.AfterEach
    void deleteTimers() {
        List<String> ids = given().when().get("/triggers?limit=500").then().statusCode(200).extract().path("triggers.id");
        ids.forEach(id -> given().when().delete("/triggers/" + id).then().statusCode(204));
    }

    private static String timer(String flow, String source) {
        return Triggers.create("""
                {"title":"timer","source":{"type":"timer",%s},"flow_id":"%s","input_template":{"at.$":"$.fire_time"}}"""
                .formatted(source, Flows.publish(flow)));
    }

    /** Waits (real time, bounded) until the trigger's events satisfy the check; returns their outcomes, newest first. */
    private static List<String> awaitEvents(String triggerId, Predicate<List<String>> done) {
        return await("events of trigger " + triggerId + " as expected").atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Triggers.events(triggerId).extract().<List<String>>path("events.outcome"),
                        outcomes -> !outcomes.contains("starting") && done.test(outcomes)); // "starting": still being handled
    }

    private static long started(List<String> outcomes) {
        return outcomes.stream().filter("started"::equals).count();
    }

    @Test
    void shouldFireACronTickAtNineInTheMorningInBerlin() {
        ZoneId berlin = ZoneId.of("Europe/Berlin");
        String triggerId = timer(Triggers.KEEP_INPUT, "\"cron\":\"0 9 * * *\",\"zone\":\"Europe/Berlin\"");
        ZonedDateTime nine = clock.instant().atZone(berlin).with(LocalTime.of(9, 0));
        if (!nine.toInstant().isAfter(clock.instant())) {
            nine = nine.plusDays(1);
        }

        clock.advanceTo(nine.toInstant().plusSeconds(5));

        awaitEvents(triggerId, outcomes -> started(outcomes) == 1);
        Triggers.events(triggerId).body("events[0].event.fire_time", equalTo(nine.toInstant().toString()));
    }

    @Test
    void shouldCatchUpMissedTicksAsEachTimerSays() {
        String none = timer(Triggers.KEEP_INPUT, "\"every\":\"PT1H\",\"catch_up\":\"none\"");
        String last = timer(Triggers.KEEP_INPUT, "\"every\":\"PT1H\",\"catch_up\":\"last\"");
        String all = timer(Triggers.KEEP_INPUT, "\"every\":\"PT1H\",\"catch_up\":\"all\",\"catch_up_window\":\"PT3H\"");

        clock.advance(Duration.ofMinutes(5 * 60 + 30)); // the engine "was down" for five and a half hours

        assertThat(awaitEvents(all, outcomes -> outcomes.size() == 3)).containsOnly("started");
        assertThat(awaitEvents(last, outcomes -> outcomes.size() == 1)).containsOnly("started");
        Triggers.keepsEvents(none, 0, Duration.ofMillis(1500)); // a tick or two more: "none" must stay quiet
    }

    @Test
    void shouldStopAfterMaxRunsAndFireNowAndBackfillOnlyTicksNotFiredYet() {
        Instant start = clock.instant().plusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        String triggerId = timer(Triggers.KEEP_INPUT, "\"every\":\"PT1M\",\"max_runs\":2,\"start\":\"%s\"".formatted(start));

        for (int minute = 0; minute < 4; minute++) {
            clock.advanceTo(start.plus(Duration.ofMinutes(minute)).plusSeconds(2));
            int expected = Math.min(minute + 1, 2);
            awaitEvents(triggerId, outcomes -> started(outcomes) == expected);
        }
        await("trigger " + triggerId + " stays at 2 started runs").during(Duration.ofMillis(1500)).atMost(Duration.ofMillis(6500))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> started(Triggers.events(triggerId).extract().path("events.outcome")), equalTo(2L));

        given().when().post("/triggers/" + triggerId + "/fire").then().statusCode(200).body("outcome", equalTo("started"));
        String range = "{\"from\":\"%s\",\"to\":\"%s\"}".formatted(start, start.plus(Duration.ofMinutes(4)));
        given().contentType(ContentType.JSON).body(range).when().post("/triggers/" + triggerId + "/backfill").then()
                .statusCode(200).body("outcomes.outcome", equalTo(List.of("duplicate", "duplicate", "started", "started")));
    }

    @Test
    void shouldSkipATickWhileTheRunBeforeIsStillGoingOrCancelIt() {
        String skip = timer(HOUR_LONG, "\"every\":\"PT1M\",\"overlap\":\"skip\",\"catch_up\":\"all\"");
        String cancel = timer(HOUR_LONG, "\"every\":\"PT1M\",\"overlap\":\"cancel_previous\",\"catch_up\":\"all\"");

        clock.advance(Duration.ofSeconds(62));
        awaitEvents(skip, outcomes -> started(outcomes) == 1);
        awaitEvents(cancel, outcomes -> started(outcomes) == 1);
        String first = Triggers.events(cancel).extract().path("events[0].run_id");
        clock.advance(Duration.ofSeconds(60));

        awaitEvents(skip, outcomes -> outcomes.size() == 2);
        Triggers.events(skip).body("events[0].outcome", equalTo("filtered"))
                .body("events[0].reason", containsString("still going (overlap: skip)"));
        awaitEvents(cancel, outcomes -> started(outcomes) == 2);
        assertThat(Flows.awaitStatus(first, Duration.ofSeconds(20), "ENDED", "FAILED", "SUCCEEDED")).isEqualTo("ENDED");
    }

    @Test
    void shouldPauseAfterTwoFailedRunsInARow() {
        String triggerId = timer(FAILS, "\"every\":\"PT1M\",\"pause_after_failures\":2,\"catch_up\":\"all\"");

        for (int tick = 1; tick <= 2; tick++) {
            clock.advance(Duration.ofSeconds(61));
            int expected = tick;
            awaitEvents(triggerId, outcomes -> started(outcomes) == expected);
            String runId = Triggers.events(triggerId).extract().path("events[0].run_id");
            Flows.awaitStatus(runId, Duration.ofSeconds(20), "FAILED");
        }
        clock.advance(Duration.ofSeconds(61));

        awaitEvents(triggerId, outcomes -> outcomes.size() == 3);
        given().when().get("/triggers/" + triggerId).then().statusCode(200).body("status", equalTo("paused"));
        Triggers.events(triggerId).body("events[0].reason", containsString("the last 2 runs failed"));
    }

    @Test
    void shouldRefuseAnInvalidCronOrZoneNamingTheField() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        refused(flowId, "\"cron\":\"61 * * * *\"", "/source/cron");
        refused(flowId, "\"cron\":\"0 9 * * *\",\"zone\":\"Mars/Olympus\"", "/source/zone");
        refused(flowId, "\"every\":\"fortnightly\"", "/source/every");
        refused(flowId, "\"every\":\"PT1M\",\"overlap\":\"sometimes\"", "/source/overlap");
        refused(flowId, "\"every\":\"PT1M\",\"cron\":\"* * * * *\"", "/source");
    }

    private static void refused(String flowId, String source, String field) {
        given().contentType(ContentType.JSON).body("""
                        {"title":"t","source":{"type":"timer",%s},"flow_id":"%s"}""".formatted(source, flowId))
                .when().post("/triggers").then().log().ifValidationFails().statusCode(400).body("errors.pointer", hasItem(field));
    }
}
