package dev.continuum.engine.support;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;

import java.time.Duration;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.in;

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
        return await("run " + runId + " reaches " + String.join("/", statuses)).atMost(within).pollInterval(Duration.ofMillis(50))
                .until(() -> run(runId).extract().<String>path("status"), in(statuses));
    }

    /** Waits (30 s at most) until the run's log holds an entry with {@code code}, e.g. its action started. */
    public static void awaitLogged(String runId, String code) {
        await("run " + runId + " logs " + code).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                .until(() -> given().when().get("/runs/" + runId + "/log?limit=1000").then().statusCode(200)
                        .extract().<java.util.List<String>>path("entries.code"), codes -> codes.contains(code));
    }

    public static Map<String, Object> json(Object... keyValues) {
        java.util.LinkedHashMap<String, Object> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            map.put((String) keyValues[i], keyValues[i + 1]);
        }
        return map;
    }
}
