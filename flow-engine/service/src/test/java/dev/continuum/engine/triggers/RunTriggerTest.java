package dev.continuum.engine.triggers;

import dev.continuum.engine.app.RunChanged;
import dev.continuum.engine.app.RunChanges;
import dev.continuum.engine.events.RunEventsRecorder;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** Chaining: a {@code run} trigger starts its flow when a run of another flow reaches a status, once per (run, status). */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class RunTriggerTest {

    @Inject
    RunChanges stream;

    @Inject
    RunEventsRecorder recorder;

    private static String chain(String upstream, String downstream) {
        return Triggers.create("""
                {"title":"after A","source":{"type":"run","flow_id":"%s","statuses":["SUCCEEDED"]},"flow_id":"%s",
                 "filter":"label == 'nightly'",
                 "input_template":{"answer.$":"$.output.answer","upstream.$":"$.run_id","status.$":"$.status"}}"""
                .formatted(upstream, downstream));
    }

    @Test
    void shouldStartTheNextFlowOnceWithTheFinishedRunsOutput() {
        String a = Flows.publish(Triggers.KEEP_INPUT);
        String b = Flows.publish(Triggers.KEEP_INPUT);
        String trigger = chain(a, b);

        String upstream = given().contentType(ContentType.JSON).body("{\"body\":{\"answer\":42},\"label\":\"nightly\"}")
                .when().post("/flows/" + a + "/run").then().statusCode(201).extract().path("run_id");
        assertThat(Flows.awaitStatus(upstream, Duration.ofSeconds(30), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");

        String downstream = awaitOutcome(trigger, "started").get("run_id");
        assertThat(Flows.awaitStatus(downstream, Duration.ofSeconds(30), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(downstream).body("details.output.answer", equalTo(42))
                .body("details.output.upstream", equalTo(upstream))
                .body("details.output.status", equalTo("SUCCEEDED"));

        // the stream delivers the same change again (as after a reconnect): recorded as a duplicate, no second run
        RunChanged succeeded = recorder.of(upstream).stream().filter(c -> c.status().equals("SUCCEEDED")).findFirst().orElseThrow();
        stream.committed(succeeded);
        assertThat(awaitOutcome(trigger, "duplicate").get("run_id")).isEqualTo(downstream);
        given().when().get("/runs?filter_tags=trigger:" + trigger).then().statusCode(200).body("runs.size()", equalTo(1));
    }

    @Test
    void shouldRecordARunTheFilterLeavesOutAndIgnoreOtherFlowsAndStatuses() {
        String a = Flows.publish(Triggers.KEEP_INPUT);
        String other = Flows.publish(Triggers.KEEP_INPUT);
        String trigger = chain(a, Flows.publish(Triggers.KEEP_INPUT));

        String unlabelled = Flows.start(a, "{\"answer\":1}");
        Flows.awaitStatus(unlabelled, Duration.ofSeconds(30), "SUCCEEDED");
        String ofAnotherFlow = given().contentType(ContentType.JSON).body("{\"body\":{},\"label\":\"nightly\"}")
                .when().post("/flows/" + other + "/run").then().statusCode(201).extract().path("run_id");
        Flows.awaitStatus(ofAnotherFlow, Duration.ofSeconds(30), "SUCCEEDED");

        java.util.Map<String, String> filtered = awaitOutcome(trigger, "filtered");
        assertThat(filtered.get("dedup_key")).isEqualTo("run:" + unlabelled + ":SUCCEEDED");
        // the other flow's run, committed after, has its chance to reach the trigger
        Triggers.keepsEvents(trigger, 1, Duration.ofSeconds(1));
    }

    @Test
    void shouldRefuseUnknownStatusesAndAnUpstreamFlowNobodyCanSee() {
        String b = Flows.publish(Triggers.KEEP_INPUT);
        given().contentType(ContentType.JSON).body("""
                {"title":"bad","source":{"type":"run","statuses":["DONE"]},"flow_id":"%s"}""".formatted(b))
                .when().post("/triggers").then().statusCode(400).body("errors[0].pointer", equalTo("/source/statuses/0"));
        given().contentType(ContentType.JSON).body("""
                {"title":"bad","source":{"type":"run","flow_id":"00000000-0000-0000-0000-000000000000"},"flow_id":"%s"}"""
                .formatted(b)).when().post("/triggers").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/source/flow_id"));
    }

    /** The newest event with this outcome, as GET /triggers/{id}/events lists it (bounded wait). */
    private static java.util.Map<String, String> awaitOutcome(String trigger, String outcome) {
        return await("trigger " + trigger + " records a '" + outcome + "' event").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> Triggers.events(trigger).extract().<List<java.util.Map<String, String>>>path("events").stream()
                        .filter(event -> outcome.equals(event.get("outcome"))).findFirst(), java.util.Optional::isPresent)
                .get();
    }
}
