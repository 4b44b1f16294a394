package dev.continuum.engine.triggers;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.MqttBroker;
import dev.continuum.engine.support.MqttBrokerResource;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** MQTT triggers against a real broker (the machine's Mosquitto, else an embedded Moquette). */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = MqttBrokerResource.class, restrictToAnnotatedClass = true)
class MqttTriggerTest {

    private static MqttBroker.Publisher instrument;

    @BeforeAll
    static void connectInstrument() {
        instrument = new MqttBroker.Publisher(MqttBroker.address());
    }

    @AfterAll
    static void disconnectInstrument() {
        instrument.close();
    }

    private static String mqttTrigger(String topic, String extra) {
        return Triggers.create("""
                {"title":"detector frames","source":{"type":"mqtt","topic":"%s"},"flow_id":"%s",
                 "input_template":{"path.$":"$.path","topic.$":"$._context.topic"}%s}"""
                .formatted(topic, Flows.publish(Triggers.KEEP_INPUT), extra));
    }

    @Test
    void shouldStartOneRunPerMessageOnAMatchingTopicWithTheTopicInTheInput() {
        String prefix = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        String triggerId = mqttTrigger(prefix + "/+/frames", "");

        instrument.publish(prefix + "/eiger/frames", "{\"event_id\":\"f-1\",\"path\":\"/data/f1.h5\"}");
        instrument.publish(prefix + "/eiger/status", "{\"event_id\":\"s-1\",\"path\":\"/data/not-a-frame\"}");

        var events = awaitEvents(triggerId, 1);
        assertThat(events).extracting(e -> e.outcome).containsExactly("started");
        String runId = events.get(0).runId;
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.path", equalTo("/data/f1.h5"))
                .body("details.output.topic", equalTo(prefix + "/eiger/frames"));
    }

    @Test
    void shouldStartNoSecondRunWhenTheSameEventComesAgain() {
        String prefix = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        String triggerId = mqttTrigger(prefix + "/#", "");

        // the sender names its event: a retry with another packet id is the same event
        instrument.publish(prefix + "/a", "{\"event_id\":\"scan-17\",\"path\":\"/data/17\"}");
        instrument.publish(prefix + "/a", "{\"event_id\":\"scan-17\",\"path\":\"/data/17\",\"retry\":true}");
        // no event_id: the same bytes on the same topic are the same event, different bytes another one
        instrument.publish(prefix + "/b", "{\"path\":\"/data/18\"}");
        instrument.publish(prefix + "/b", "{\"path\":\"/data/18\"}");
        instrument.publish(prefix + "/b", "{\"path\":\"/data/19\"}");

        var events = awaitEvents(triggerId, 5);
        assertThat(events).filteredOn(e -> e.outcome.equals("started")).hasSize(3);
        assertThat(events).filteredOn(e -> e.outcome.equals("duplicate")).hasSize(2);
        assertThat(events).filteredOn(e -> e.outcome.equals("started")).extracting(e -> e.runId).doesNotHaveDuplicates();
        given().when().get("/runs?filter_tags=trigger:" + triggerId).then().statusCode(200);
    }

    @Test
    void shouldRecordMalformedJsonAsRejectedAndStartNothing() {
        String prefix = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        String triggerId = mqttTrigger(prefix + "/raw", "");

        instrument.publish(prefix + "/raw", "{\"path\": broken");

        var events = awaitEvents(triggerId, 1);
        assertThat(events.get(0).outcome).isEqualTo("rejected");
        Triggers.events(triggerId).body("events[0].reason", containsString("not a JSON object"));
    }

    @Test
    void shouldStopStartingRunsWhileThePausedTriggerIsPaused() {
        String prefix = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        String triggerId = mqttTrigger(prefix + "/x", "");
        String sentinelId = mqttTrigger(prefix + "/sentinel", "");
        given().when().post("/triggers/" + triggerId + "/pause").then().statusCode(200);

        instrument.publish(prefix + "/x", "{\"event_id\":\"while-paused\",\"path\":\"/p\"}");
        // the broker hands the engine one client's messages in order: once the sentinel sent after it is taken in,
        // the message sent while paused has been seen by a paused trigger, so resuming cannot race it
        instrument.publish(prefix + "/sentinel", "{\"event_id\":\"sentinel\",\"path\":\"/s\"}");
        awaitEvents(sentinelId, 1);
        given().when().post("/triggers/" + triggerId + "/resume").then().statusCode(200);
        instrument.publish(prefix + "/x", "{\"event_id\":\"after-resume\",\"path\":\"/q\"}");

        var events = awaitEvents(triggerId, 1);
        assertThat(events).extracting(e -> e.outcome).containsExactly("started");
        Triggers.events(triggerId).body("events[0].dedup_key", equalTo("mqtt:id:after-resume"));
    }

    @Test
    void shouldRefuseATopicFilterMqttDoesNotAllowAndABrokerThisEngineDoesNotUse() {
        String flowId = Flows.publish(Triggers.KEEP_INPUT);
        given().contentType(ContentType.JSON).body("""
                {"title":"t","source":{"type":"mqtt","topic":"lab/#/frames"},"flow_id":"%s"}""".formatted(flowId))
                .when().post("/triggers").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/source/topic"));
        given().contentType(ContentType.JSON).body("""
                {"title":"t","source":{"type":"mqtt"},"flow_id":"%s"}""".formatted(flowId))
                .when().post("/triggers").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/source/topic"));
        given().contentType(ContentType.JSON).body("""
                {"title":"t","source":{"type":"amqp","topic":"lab/#"},"flow_id":"%s"}""".formatted(flowId))
                .when().post("/triggers").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/source/type"))
                .body("errors[0].message", containsString("mp.messaging.incoming.trigger-amqp.enabled=true"));
    }

    record Event(String outcome, String runId, String dedupKey) {}

    /** The trigger's events once at least {@code count} are recorded (and a moment later, so none is missed). */
    static List<Event> awaitEvents(String triggerId, int count) {
        await("trigger " + triggerId + " has " + count + " events").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .untilAsserted(() -> assertThat(Triggers.events(triggerId).extract().<List<?>>path("events"))
                        .as("events of trigger " + triggerId).hasSizeGreaterThanOrEqualTo(count));
        try {
            Thread.sleep(300); // a settling period: events still on their way are in the list read next
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        List<java.util.Map<String, Object>> found = Triggers.events(triggerId).extract().path("events");
        return found.stream().map(e -> new Event((String) e.get("outcome"), (String) e.get("run_id"),
                (String) e.get("dedup_key"))).toList();
    }
}
