package dev.continuum.engine.triggers;

import dev.continuum.engine.app.triggers.WebhookSignature;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.TestClock;
import jakarta.inject.Inject;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class WebhookTriggerTest {

    private static final String EVENT = "{\"path\":\"/beamline/scan-17.h5\",\"detector\":\"eiger\"}";

    record Made(String id, String secret) {}

    private static Made webhookTrigger() {
        var created = given().contentType("application/json").body("""
                        {"title":"beamline scans","source":{"type":"webhook"},"flow_id":"%s",
                         "filter":"detector == 'eiger'","input_template":{"scan.$":"$.path"}}"""
                        .formatted(Flows.publish(Triggers.KEEP_INPUT)))
                .when().post("/triggers").then().statusCode(201)
                .body("webhook.path", notNullValue()).body("webhook.secret", notNullValue()).extract();
        return new Made(created.path("id"), created.path("webhook.secret"));
    }

    static ValidatableResponse post(String triggerId, String secret, String deliveryId, long epochSeconds, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        String timestamp = String.valueOf(epochSeconds);
        return given().header("X-Continuum-Delivery", deliveryId).header("X-Continuum-Timestamp", timestamp)
                .header("X-Continuum-Signature", WebhookSignature.sign(secret, timestamp, bytes))
                .contentType("application/json").body(bytes)
                .when().post("/triggers/" + triggerId + "/webhook").then().log().ifValidationFails();
    }

    /** The engine's clock, which other tests in this JVM move: signatures are judged by it. */
    @Inject
    TestClock clock;

    private long now() {
        return clock.instant().getEpochSecond();
    }

    @Test
    void shouldStartARunForASignedDeliveryAndRefuseItsReplay() {
        Made trigger = webhookTrigger();

        String runId = post(trigger.id(), trigger.secret(), "d-1", now(), EVENT).statusCode(202)
                .body("outcome", equalTo("started")).extract().path("run_id");
        post(trigger.id(), trigger.secret(), "d-1", now(), EVENT).statusCode(409)
                .body("outcome", equalTo("duplicate")).body("run_id", equalTo(runId));

        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.scan", equalTo("/beamline/scan-17.h5"));
        Triggers.events(trigger.id()).body("events.outcome", equalTo(java.util.List.of("duplicate", "started")));
    }

    @Test
    void shouldStartNothingAndAnswer401ForABadOrStaleSignature() {
        Made trigger = webhookTrigger();

        post(trigger.id(), "whsec_not-the-secret", "d-2", now(), EVENT).statusCode(401)
                .body("detail", containsString("matches none"));
        post(trigger.id(), trigger.secret(), "d-3", now() - 6 * 60, EVENT).statusCode(401)
                .body("detail", containsString("5 minutes"));
        given().header("X-Continuum-Delivery", "d-4").contentType("application/json").body(EVENT)
                .when().post("/triggers/" + trigger.id() + "/webhook").then().statusCode(401);
        // Signed over another body: a captured signature does not carry over to altered content.
        String timestamp = String.valueOf(now());
        given().header("X-Continuum-Delivery", "d-5").header("X-Continuum-Timestamp", timestamp)
                .header("X-Continuum-Signature", WebhookSignature.sign(trigger.secret(), timestamp, "{}".getBytes()))
                .contentType("application/json").body(EVENT)
                .when().post("/triggers/" + trigger.id() + "/webhook").then().statusCode(401);

        Triggers.events(trigger.id()).body("events.size()", equalTo(0));
    }

    @Test
    void shouldAcceptTheOldAndTheNewSecretAfterOneRotationAndOnlyTheNewestTwoAfterAnother() {
        Made trigger = webhookTrigger();
        String second = rotate(trigger.id());

        post(trigger.id(), trigger.secret(), "r-1", now(), EVENT).statusCode(202);
        post(trigger.id(), second, "r-2", now(), EVENT).statusCode(202);

        String third = rotate(trigger.id());
        post(trigger.id(), trigger.secret(), "r-3", now(), EVENT).statusCode(401);
        post(trigger.id(), second, "r-4", now(), EVENT).statusCode(202);
        post(trigger.id(), third, "r-5", now(), EVENT).statusCode(202);
    }

    private static String rotate(String triggerId) {
        return given().when().post("/triggers/" + triggerId + "/webhook/secrets").then().statusCode(201)
                .extract().path("secret");
    }

    @Test
    void shouldRecordMalformedJsonAsRejectedWithTheReason() {
        Made trigger = webhookTrigger();

        post(trigger.id(), trigger.secret(), "m-1", now(), "{\"path\": oops").statusCode(202)
                .body("outcome", equalTo("rejected")).body("reason", containsString("not a JSON object"));
        Triggers.events(trigger.id()).body("events[0].event", containsString("not JSON"));
    }
}
