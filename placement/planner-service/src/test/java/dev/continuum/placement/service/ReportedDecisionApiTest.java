package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PlannerTestProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /placements/{id}/decisions}: a decision the training provider's own planner made reaches the log, where
 * {@code GET /placements?kind=training} (the web UI's devices page) lists it with its site, status and reason.
 */
@QuarkusTest
@TestProfile(PlannerTestProfile.class)
class ReportedDecisionApiTest {

    private static RequestSpecification api() {
        return given().auth().oauth2(KeycloakResource.token("scientist")).contentType("application/json");
    }

    private static String report(String id, PlacementDecision d, String extra) {
        return """
                {"kind": "training", "runId": "run-r1", "at": "2026-12-07T10:00:00Z", "decision": %s %s}"""
                .formatted(TraceCodec.writeDecision(d), extra);
    }

    private static PlacementDecision placed(String id) {
        return new PlacementDecision.Placed(id, new PlacementDecision.Candidate("lab/gpu", "n1:0,1", 2, 1.0, null),
                0, 600_000, List.of("lab/gpu: 2 GPUs free on n1"), List.of());
    }

    @Test
    void shouldListATrainingJobsReportedDecisionsWithTheirSiteStatusAndReason() {
        String id = "tr-" + UUID.randomUUID().toString().substring(0, 8);

        api().body(report(id, new PlacementDecision.Queued(id, "lab/gpu", 1, List.of("lab/gpu: 2 GPUs busy")), ""))
                .post("/placements/" + id + "/decisions").then().statusCode(201).body("status", equalTo("queued"));
        api().body(report(id, placed(id), "")).post("/placements/" + id + "/decisions").then().statusCode(201)
                .body("status", equalTo("placed")).body("site", equalTo("lab/gpu")).body("runId", equalTo("run-r1"));

        api().get("/placements?kind=training&subject=" + id).then().statusCode(200)
                .body("placements.status", contains("queued", "placed"))
                .body("placements.site", contains("lab/gpu", "lab/gpu"))
                .body("placements.cause", contains("reported", "reported"))
                .body("placements.runId", contains("run-r1", "run-r1"))
                .body("placements[1].decision.reasons[0]", equalTo("lab/gpu: 2 GPUs free on n1"))
                .body("placements[1].at", equalTo("2026-12-07T10:00:00Z"));
        api().get("/placements?subject=run-r1&kind=training").then().statusCode(200)
                .body("placements.id", hasItem(id));
    }

    @Test
    void shouldRefuseABadReportNamingTheField() {
        String id = "tr-" + UUID.randomUUID().toString().substring(0, 8);
        String path = "/placements/" + id + "/decisions";

        api().body(report(id, placed(id), "").replace("\"training\"", "\"inference\"")).post(path)
                .then().statusCode(400).body("errors.pointer", contains("/kind"));
        api().body("{\"kind\": \"training\"}").post(path).then().statusCode(400).body("errors.pointer", contains("/decision"));
        api().body(report(id, placed("someone-else"), "")).post(path)
                .then().statusCode(400).body("errors.pointer", contains("/decision/requestId"));
        api().body("{\"kind\": \"training\", \"decision\": {\"type\": \"teleported\", \"requestId\": \"" + id + "\"}}")
                .post(path).then().statusCode(400).body("errors.pointer", contains("/decision"));
        api().body(report(id, placed(id), ", \"colour\": \"blue\"")).post(path)
                .then().statusCode(400).body("errors.pointer", contains("/colour"));
        api().get("/placements/" + id).then().statusCode(404);
    }

    @Test
    void shouldRefuseAReportWithoutAToken() {
        String id = "tr-" + UUID.randomUUID().toString().substring(0, 8);
        given().contentType("application/json").body(report(id, placed(id), ""))
                .post("/placements/" + id + "/decisions").then().statusCode(401);
        given().auth().oauth2("not-a-token").contentType("application/json").body(report(id, placed(id), ""))
                .post("/placements/" + id + "/decisions").then().statusCode(401);
    }

    @Test
    void shouldRefuseAReportAboutAJobThePlannerDecidesItself() {
        String id = "tr-" + UUID.randomUUID().toString().substring(0, 8);
        api().body("{\"id\": \"" + id + "\", \"kind\": \"training\", \"minGpus\": 1}").post("/placements")
                .then().statusCode(201);

        api().body(report(id, placed(id), "")).post("/placements/" + id + "/decisions")
                .then().statusCode(409).body("errors.pointer", contains("/id"));
    }
}
