package dev.continuum.engine.triggers;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class TriggerApiTest {

    private static String apiTrigger(String flowId, String extra) {
        return Triggers.create("""
                {"title":"microscope images","source":{"type":"api"},"flow_id":"%s",
                 "filter":"size > 100 and suffix == '.tif'",
                 "input_template":{"path.$":"$.path","bytes.$":"$.size","trigger.$":"$._context.trigger_id"},
                 "run_label":"new image","run_tags":["microscope"]%s}""".formatted(flowId, extra));
    }

    @Test
    void shouldStartOneRunWithTheTemplatedInputWhenAnEventPassesTheFilter() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        String triggerId = apiTrigger(flowId, "");

        String runId = Triggers.deliver(triggerId, "img-1", "{\"path\":\"/data/a.tif\",\"size\":2048,\"suffix\":\".tif\"}")
                .statusCode(202).body("outcome", equalTo("started")).extract().path("run_id");

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId)
                .body("details.output.path", equalTo("/data/a.tif"))
                .body("details.output.bytes", equalTo(2048))
                .body("details.output.trigger", equalTo(triggerId))
                .body("label", equalTo("new image"))
                .body("tags", hasItem("microscope"))
                .body("tags", hasItem("trigger:" + triggerId));
        Triggers.events(triggerId)
                .body("events[0].outcome", equalTo("started"))
                .body("events[0].run_id", equalTo(runId))
                .body("events[0].event.path", equalTo("/data/a.tif"));
    }

    @Test
    void shouldRecordWhyAnEventStartedNothing() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT, """
                {"type":"object","required":["path"],"properties":{"path":{"type":"string"}}}""");
        String triggerId = Triggers.create("""
                {"title":"t","source":{"type":"api"},"flow_id":"%s","filter":"size > 100",
                 "input_template":{"path.$":"$.path"}}""".formatted(flowId));

        Triggers.deliver(triggerId, "small", "{\"path\":\"/a\",\"size\":5}").statusCode(202)
                .body("outcome", equalTo("filtered")).body("run_id", nullValue());
        Triggers.deliver(triggerId, "no-path", "{\"size\":500}").statusCode(202)
                .body("outcome", equalTo("rejected")).body("reason", containsString("path '$.path' not found"));
        Triggers.deliver(triggerId, "wrong-type", "{\"path\":7,\"size\":500}").statusCode(202)
                .body("outcome", equalTo("rejected")).body("reason", containsString("/body/path"));
        Triggers.deliver(triggerId, "not-an-object", "[1,2]").statusCode(202)
                .body("outcome", equalTo("rejected")).body("reason", containsString("not a JSON object"));

        Triggers.events(triggerId).body("events.outcome", equalTo(List.of("rejected", "rejected", "rejected", "filtered")));
        given().when().get("/triggers/" + triggerId).then().statusCode(200)
                .body("status", equalTo("failing")).body("consecutive_failures", equalTo(3));
    }

    @Test
    void shouldCountEventsBySourceAndOutcomeForPrometheus() {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        double started = eventsCounted("started");
        double filtered = eventsCounted("filtered");
        double duplicates = eventsCounted("duplicate");

        Triggers.deliver(triggerId, "count-1", "{\"path\":\"/a.tif\",\"size\":2048,\"suffix\":\".tif\"}").statusCode(202);
        Triggers.deliver(triggerId, "count-1", "{\"path\":\"/a.tif\",\"size\":2048,\"suffix\":\".tif\"}").statusCode(202);
        Triggers.deliver(triggerId, "count-2", "{\"path\":\"/b.txt\",\"size\":5,\"suffix\":\".txt\"}").statusCode(202);

        assertThat(eventsCounted("started") - started).isEqualTo(1.0);
        assertThat(eventsCounted("duplicate") - duplicates).isEqualTo(1.0);
        assertThat(eventsCounted("filtered") - filtered).isEqualTo(1.0);
    }

    /** {@code continuum_trigger_events_total{outcome, source="api"}} as Prometheus scrapes it from /q/metrics (0 before the first). */
    private static double eventsCounted(String outcome) {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines()
                .filter(line -> line.startsWith("continuum_trigger_events_total{") && line.contains("outcome=\"" + outcome + "\"")
                        && line.contains("source=\"api\""))
                .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                .sum();
    }

    @Test
    void shouldStartExactlyOneRunWhenTheSameEventArrivesTwentyTimesAtOnce() throws Exception {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        String event = "{\"path\":\"/data/b.tif\",\"size\":4096,\"suffix\":\".tif\"}";

        List<Callable<String>> deliveries = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            deliveries.add(() -> Triggers.deliver(triggerId, "same", event).extract().asString());
        }
        var pool = Executors.newFixedThreadPool(8);
        List<String> answers = new ArrayList<>();
        for (Future<String> answer : pool.invokeAll(deliveries)) {
            answers.add(answer.get());
        }
        pool.shutdown();

        assertThat(answers.stream().filter(a -> a.contains("\"outcome\":\"started\""))).hasSize(1);
        // Later duplicates name the run the first delivery started; ones racing it are told to retry (409).
        Triggers.deliver(triggerId, "same", event).statusCode(202).body("outcome", equalTo("duplicate"))
                .body("first_outcome", equalTo("started"));
        List<String> runIds = Triggers.events(triggerId).extract().path("events.findAll { it.run_id != null }.run_id");
        assertThat(runIds.stream().distinct()).hasSize(1);
        given().when().get("/runs?filter_tags=trigger:" + triggerId).then().statusCode(200)
                .body("runs.size()", equalTo(1));
    }

    @Test
    void shouldStartNothingWhilePausedAndStartAgainAfterResume() {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        String event = "{\"path\":\"/c.tif\",\"size\":999,\"suffix\":\".tif\"}";

        given().when().post("/triggers/" + triggerId + "/pause").then().statusCode(200).body("status", equalTo("paused"));
        Triggers.deliver(triggerId, "while-paused", event).statusCode(202)
                .body("outcome", equalTo("rejected")).body("reason", containsString("paused"));
        given().when().post("/triggers/" + triggerId + "/resume").then().statusCode(200).body("status", equalTo("active"));
        Triggers.deliver(triggerId, "after-resume", event).statusCode(202).body("outcome", equalTo("started"));
    }

    @Test
    void shouldShowTheInputWithoutStartingOnADryRunAndStartOnATestFire() {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        String body = "{\"event\":{\"path\":\"/d.tif\",\"size\":101,\"suffix\":\".tif\"}%s}";

        given().contentType(ContentType.JSON).body(body.formatted(",\"dry_run\":true"))
                .when().post("/triggers/" + triggerId + "/test").then().statusCode(200)
                .body("outcome", equalTo("dry_run")).body("input.path", equalTo("/d.tif")).body("input.bytes", equalTo(101));
        Triggers.events(triggerId).body("events.size()", equalTo(0));

        String runId = given().contentType(ContentType.JSON).body(body.formatted(""))
                .when().post("/triggers/" + triggerId + "/test").then().statusCode(200)
                .body("outcome", equalTo("started")).extract().path("run_id");
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
    }

    @Test
    void shouldStartThePinnedVersionAfterTheFlowChanges() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        given().contentType(ContentType.JSON).body("{\"title\":\"v2\",\"definition\":" + Triggers.KEEP_INPUT + "}")
                .when().put("/flows/" + flowId).then().statusCode(200);
        String pinned = apiTrigger(flowId, ",\"flow_version\":1");
        String latest = apiTrigger(flowId, "");
        String event = "{\"path\":\"/e.tif\",\"size\":500,\"suffix\":\".tif\"}";

        String pinnedRun = Triggers.deliver(pinned, "e", event).statusCode(202).extract().path("run_id");
        String latestRun = Triggers.deliver(latest, "e", event).statusCode(202).extract().path("run_id");

        Flows.run(pinnedRun).body("flow_version", equalTo(1));
        Flows.run(latestRun).body("flow_version", equalTo(2));
    }

    @Test
    void shouldPageAllOfATriggersEventsByMarkerNewestFirst() {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        for (int i = 1; i <= 5; i++) {
            Triggers.deliver(triggerId, "e" + i, "{\"path\":\"/small\",\"size\":5}").statusCode(202);
        }

        List<String> seen = new ArrayList<>();
        String marker = null;
        List<Boolean> more = new ArrayList<>();
        do {
            var page = marker == null
                    ? given().when().get("/triggers/" + triggerId + "/events?limit=2")
                    : given().queryParam("marker", marker).when().get("/triggers/" + triggerId + "/events");
            var body = page.then().statusCode(200).body("limit", equalTo(2)).extract();
            seen.addAll(body.path("events.dedup_key"));
            more.add(body.path("has_next_page"));
            marker = body.path("marker");
        } while (marker != null);

        assertThat(seen).containsExactly("api:e5", "api:e4", "api:e3", "api:e2", "api:e1");
        assertThat(more).containsExactly(true, true, false);
    }

    @Test
    void shouldRefuseABadEventPageNamingTheParameter() {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        String runsMarker = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"query\":{},\"after\":[\"2026-01-01T00:00:00Z\",\"x\"]}".getBytes(java.nio.charset.StandardCharsets.UTF_8));

        eventsRefused(triggerId, "limit", "501", "/limit");
        eventsRefused(triggerId, "marker", "not-a-marker", "/marker");
        eventsRefused(triggerId, "marker", runsMarker, "/marker");
        eventsRefused(triggerId, "offset", "3", "/offset");
    }

    private static void eventsRefused(String triggerId, String parameter, String value, String pointer) {
        given().queryParam(parameter, value).when().get("/triggers/" + triggerId + "/events").then().log().ifValidationFails()
                .statusCode(400).contentType("application/problem+json").body("errors.pointer", hasItem(pointer));
    }

    @Test
    void shouldRefuseABadTriggerNamingTheField() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        refused("{\"title\":\"t\",\"source\":{\"type\":\"carrier-pigeon\"},\"flow_id\":\"%s\"}".formatted(flowId), "/source/type");
        refused("{\"title\":\"t\",\"source\":{\"type\":\"api\"},\"flow_id\":\"%s\",\"filter\":\"size >\"}".formatted(flowId), "/filter");
        refused("{\"title\":\"t\",\"source\":{\"type\":\"api\"},\"flow_id\":\"%s\",\"input_template\":{\"x.=\":\"1 +\"}}"
                .formatted(flowId), "/input_template/x.=");
        refused("{\"title\":\"t\",\"source\":{\"type\":\"api\"},\"flow_id\":\"%s\",\"flow_version\":9}".formatted(flowId), "/flow_version");
        refused("{\"title\":\"t\",\"source\":{\"type\":\"api\"},\"flow_id\":\"7b0f6a0e-0000-4000-8000-000000000000\"}", "/flow_id");
        refused("{\"source\":{\"type\":\"api\"},\"flow_id\":\"%s\"}".formatted(flowId), "/title");
    }

    private static void refused(String body, String field) {
        given().contentType(ContentType.JSON).body(body).when().post("/triggers").then().log().ifValidationFails()
                .statusCode(400).body("errors.pointer", hasItem(field));
    }

    @Test
    void shouldForgetADeletedTriggerAndItsEvents() {
        String triggerId = apiTrigger(Flows.publish(Triggers.KEEP_INPUT), "");
        given().when().get("/triggers").then().statusCode(200).body("triggers.id", hasItem(triggerId));

        given().when().delete("/triggers/" + triggerId).then().statusCode(204);

        given().when().get("/triggers/" + triggerId).then().statusCode(404);
        Triggers.deliver(triggerId, "late", "{}").statusCode(404);
    }

    @Test
    void shouldRefuseAServiceAccountThisEngineDoesNotHaveAndAnUnknownRunAs() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        given().contentType(ContentType.JSON).body("""
                {"title":"t","source":{"type":"api"},"flow_id":"%s","run_as":"service_account"}""".formatted(flowId))
                .when().post("/triggers").then().statusCode(400).body("errors[0].pointer", equalTo("/run_as"))
                .body("errors[0].message", containsString("continuum.auth.trigger-client-id"));
        given().contentType(ContentType.JSON).body("""
                {"title":"t","source":{"type":"api"},"flow_id":"%s","run_as":"robot"}""".formatted(flowId))
                .when().post("/triggers").then().statusCode(400).body("errors[0].pointer", equalTo("/run_as"));
    }
}
