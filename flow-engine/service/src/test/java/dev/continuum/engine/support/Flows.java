package dev.continuum.engine.support;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

import static io.restassured.RestAssured.given;

/** Small helpers that talk to the engine only through its public API. */
public final class Flows {

    private Flows() {}

    public static String provider(String name) {
        return "http://127.0.0.1:" + RestAssured.port + "/providers/" + name;
    }

    public static String publish(String definitionJson) {
        return publish(definitionJson, null);
    }

    public static String publish(String definitionJson, String inputSchemaJson) {
        String body = "{\"title\":\"test flow\",\"definition\":" + definitionJson
                + (inputSchemaJson == null ? "" : ",\"input_schema\":" + inputSchemaJson) + "}";
        return given().contentType(ContentType.JSON).body(body)
                .when().post("/flows")
                .then().log().ifValidationFails().statusCode(201).extract().path("id");
    }

    public static String start(String flowId, String inputJson) {
        return given().contentType(ContentType.JSON).body("{\"body\":" + inputJson + ",\"label\":\"t\",\"tags\":[\"test\"]}")
                .when().post("/flows/" + flowId + "/run")
                .then().log().ifValidationFails().statusCode(201).extract().path("run_id");
    }

    public static ValidatableResponse run(String runId) {
        return given().when().get("/runs/" + runId).then().statusCode(200);
    }

    /** Waits (real time, bounded) until the run reaches one of the statuses; returns the final status. */
    public static String awaitStatus(String runId, Duration within, String... statuses) {
        Instant deadline = Instant.now().plus(within);
        String status = null;
        while (Instant.now().isBefore(deadline)) {
            status = run(runId).extract().path("status");
            for (String wanted : statuses) {
                if (wanted.equals(status)) {
                    return status;
                }
            }
            sleep(50);
        }
        throw new AssertionError("run " + runId + " stayed " + status + " instead of reaching " + String.join("/", statuses));
    }

    public static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    public static Map<String, Object> json(Object... keyValues) {
        java.util.LinkedHashMap<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
