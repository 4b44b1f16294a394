package dev.continuum.engine.triggers;

import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

/** Trigger helpers that talk to the engine only through /triggers. */
final class Triggers {

    private Triggers() {}

    /** A flow that keeps its input: the run's output shows what the trigger made of the event. */
    static final String KEEP_INPUT = """
            {"StartAt":"Keep","States":{"Keep":{"Type":"Pass","End":true}}}""";

    static String create(String json) {
        return given().contentType(ContentType.JSON).body(json).when().post("/triggers")
                .then().log().ifValidationFails().statusCode(201).extract().path("id");
    }

    static ValidatableResponse deliver(String triggerId, String dedupKey, String eventJson) {
        return given().contentType(ContentType.JSON).body("{\"dedup_key\":\"" + dedupKey + "\",\"event\":" + eventJson + "}")
                .when().post("/triggers/" + triggerId + "/events").then().log().ifValidationFails();
    }

    static ValidatableResponse events(String triggerId) {
        return given().when().get("/triggers/" + triggerId + "/events").then().statusCode(200);
    }

    /** The trigger holds {@code count} events for the whole period: nothing more arrives in it (a negative check). */
    static void keepsEvents(String triggerId, int count, Duration period) {
        await("trigger " + triggerId + " keeps " + count + " events for " + period.toMillis() + " ms").during(period)
                .atMost(period.plusSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> events(triggerId).extract().<Integer>path("events.size()"), equalTo(count));
    }
}
