package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PlannerTestProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(PlannerTestProfile.class)
class PlacementApiTest {

    private static String token;

    private static RequestSpecification api() {
        if (token == null) {
            token = KeycloakResource.token("scientist");
        }
        return given().auth().oauth2(token).contentType("application/json");
    }

    private static String id(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private static String classify(String id, long bytes) {
        return """
                {"id": "%s", "runId": "run-7", "kind": "inference", "model": "resnet", "latencySloMillis": 5000,
                 "data": [{"endpointId": "ep-gw-1", "path": "/in/img.png", "sizeBytes": %d}]}""".formatted(id, bytes);
    }

    @Test
    void shouldRefuseEveryEndpointWithoutAToken() {
        given().contentType("application/json").body(classify(id("a"), 1)).post("/placements").then().statusCode(401);
        given().get("/placements").then().statusCode(401);
        given().get("/placements/x").then().statusCode(401);
        given().auth().oauth2("not-a-token").get("/placements").then().statusCode(401);
        given().get("/forecasts").then().statusCode(401);
    }

    @Test
    void shouldAnswerTheArrivalForecastsOfASiteWithAToken() {
        api().get("/forecasts?site=gw-1").then().statusCode(200).body("forecasts", org.hamcrest.Matchers.notNullValue())
                .body("forecasts.findAll { it.site != 'gw-1' }", hasSize(0));
    }

    @Test
    void shouldPlaceAnInferenceJobBesideItsDataAndExplainWhy() {
        String id = id("cls");
        JsonPath placed = api().body(classify(id, 50_000_000)).post("/placements")
                .then().statusCode(201).header("Location", containsString("/placements/" + id))
                .body("status", equalTo("placed")).body("site", equalTo("gw-1"))
                .body("decisions", hasSize(1))
                .body("decisions[0].cause", equalTo("request"))
                .extract().jsonPath();
        JsonPath d = placed.setRootPath("decisions[0].decision");
        assertThat(d.getString("chosen.target")).isEqualTo("gw-1");
        assertThat(d.getInt("chosen.latency.transferMillis")).isZero();
        assertThat(d.getLong("predictedFinishMillis")).isGreaterThan(d.getLong("predictedStartMillis"));
        assertThat(d.getList("reasons", String.class).getFirst()).startsWith("gw-1: predicted");
        // the datacenter pool was scored too: 50 MB over a 100 Mbit/s link
        assertThat(d.getString("alternatives[0].site")).isEqualTo("dc-pool");
        assertThat(d.getInt("alternatives[0].latency.transferMillis")).isEqualTo(4020);
        assertThat(d.getString("alternatives[0].explanation")).contains("from gw-1 at 100.0 Mbit/s configured");

        api().get("/placements/" + id).then().statusCode(200)
                .body("id", equalTo(id)).body("runId", equalTo("run-7")).body("kind", equalTo("inference"))
                .body("request.model", equalTo("resnet"))
                .body("decisions[0].decision.chosen.site", equalTo("gw-1"));
    }

    @Test
    void shouldPlaceATrainingJobOnNodesAndGpus() {
        String id = id("train");
        api().body("""
                {"id": "%s", "kind": "training", "minGpus": 4, "partition": "research", "estimatedSeconds": 600}"""
                .formatted(id)).post("/placements")
                .then().statusCode(201).body("status", equalTo("placed")).body("site", equalTo("dc-train"))
                .body("decisions[0].decision.chosen.gpus", equalTo(4))
                .body("decisions[0].decision.chosen.target", containsString("GPUs"));
    }

    @Test
    void shouldNameWhatRuledOutEverySiteWhenNothingCanRunIt() {
        String id = id("nowhere");
        api().body("""
                {"id": "%s", "kind": "inference", "model": "bert", "demand": {"gpus": 1, "gpuModels": ["T4"]}}"""
                .formatted(id)).post("/placements")
                .then().statusCode(201).body("status", equalTo("unplaceable")).body("site", nullValue())
                .body("decisions[0].decision.reasonBySite.gw-1", containsString("model bert is not loaded"))
                .body("decisions[0].decision.reasonBySite.dc-pool", containsString("needs one of [T4]"));
    }

    @Test
    void shouldRefuseBadInputNamingTheField() {
        refused("""
                {"kind": "inference", "model": "gpt-9"}""", "/model");
        refused("""
                {"kind": "training", "minGpus": 64}""", "/minGpus");
        refused("""
                {"kind": "training", "demand": {"gpus": 1, "gpuModels": ["Z80"]}}""", "/demand/gpuModels");
        refused("""
                {"kind": "inference", "model": "resnet", "data": [{"endpointId": "ep-gw-1", "sizeBytes": -5}]}""",
                "/data/0/sizeBytes");
        refused("""
                {"kind": "training", "demand": {"gpus": 1, "memoryMib": -1}}""", "/demand/memoryMib");
        refused("""
                {"kind": "training", "minGpus": 1, "deadlineEpochSeconds": 1000}""", "/deadlineEpochSeconds");
        refused("""
                {"kind": "quantum"}""", "/kind");
        refused("""
                {"kind": "inference", "model": "resnet", "owner": "continuum/placement/#"}""", "/owner");
        refused("""
                {"kind": "training", "gpus": 2}""", "");
        api().get("/placements?from=yesterday").then().statusCode(400).body("errors.pointer", contains("/from"));
    }

    private static void refused(String body, String pointer) {
        api().body(body).post("/placements").then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.pointer", hasItem(pointer.isEmpty() ? "/gpus" : pointer));
    }

    @Test
    void shouldRefuseAReusedRequestId() {
        String id = id("twice");
        api().body(classify(id, 1)).post("/placements").then().statusCode(201);
        api().body(classify(id, 1)).post("/placements").then().statusCode(409).body("errors.pointer", contains("/id"));
    }

    @Test
    void shouldListTheLogFilteredAndPaged() {
        String run = id("run");
        for (int i = 0; i < 5; i++) {
            api().body("""
                    {"id": "%s-%d", "runId": "%s", "kind": "inference", "model": "resnet"}""".formatted(run, i, run))
                    .post("/placements").then().statusCode(201);
        }
        JsonPath first = api().get("/placements?subject=" + run + "&limit=3").then().statusCode(200)
                .body("placements", hasSize(3)).extract().jsonPath();
        String marker = first.getString("marker");
        assertThat(marker).isNotNull();
        JsonPath second = api().get("/placements?subject=" + run + "&limit=3&marker=" + marker).then().statusCode(200)
                .body("placements", hasSize(2)).body("marker", nullValue()).extract().jsonPath();
        List<String> ids = new java.util.ArrayList<>(first.getList("placements.id", String.class));
        ids.addAll(second.getList("placements.id", String.class));
        assertThat(ids).containsExactly(run + "-0", run + "-1", run + "-2", run + "-3", run + "-4");

        api().get("/placements?kind=training&status=placed&site=dc-train&limit=1000").then().statusCode(200)
                .body("placements.kind", org.hamcrest.Matchers.everyItem(equalTo("training")));
        api().get("/placements?subject=" + run + "&to=2000-01-01T00:00:00Z").then().statusCode(200)
                .body("placements", hasSize(0));
        api().get("/placements?subject=" + run + "&from=2000-01-01T00:00:00Z&site=gw-1").then().statusCode(200)
                .body("placements.site", org.hamcrest.Matchers.everyItem(equalTo("gw-1")));
    }

    /** A yolo job with its input at gw-2 (only gw-2 has yolo; no other test teaches gw-2's overhead). */
    private static JsonPath detect(String id) {
        return api().body("""
                {"id": "%s", "kind": "inference", "model": "yolo",
                 "data": [{"endpointId": "ep-gw-2", "path": "/in/frame.json", "sizeBytes": 1000}]}""".formatted(id))
                .post("/placements").then().statusCode(201).body("site", equalTo("gw-2"))
                .extract().jsonPath().setRootPath("decisions[0].decision.chosen");
    }

    @Test
    void shouldPredictTheOverheadAProviderReportedAtCompletion() {
        String first = id("det");
        assertThat(detect(first).getLong("latency.transferMillis")).isZero();
        api().body("""
                {"site": "gw-2", "computeMillis": 40, "queuedMillis": 5, "transferMillis": 0, "overheadMillis": 250}""")
                .post("/placements/" + first + "/completion").then().statusCode(200);

        String second = id("det");
        JsonPath predicted = detect(second);
        // the input is already at gw-2: all of the transfer term is the learnt round trip
        assertThat(predicted.getLong("latency.transferMillis")).isEqualTo(250);
        assertThat(predicted.getString("explanation"))
                .contains("250 ms task and result round trip (learnt from 1 job at gw-2");

        // an older client reports compute only: nothing is learnt about the overhead, and that is no error
        api().body("""
                {"site": "gw-2", "computeMillis": 40}""").post("/placements/" + second + "/completion")
                .then().statusCode(200);
        assertThat(detect(id("det")).getLong("latency.transferMillis")).isEqualTo(250);
    }

    @Test
    void shouldRefuseACompletionWithANegativeOrNonNumericTime() {
        String id = id("det");
        detect(id);
        api().body("""
                {"computeMillis": 40, "overheadMillis": -3}""").post("/placements/" + id + "/completion")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.pointer", contains("/overheadMillis"));
        api().body("""
                {"computeMillis": 40, "queuedMillis": "soon", "transferMillis": -1}""")
                .post("/placements/" + id + "/completion")
                .then().statusCode(400).body("errors.pointer", contains("/queuedMillis", "/transferMillis"));
        api().body("""
                {"computeMillis": 40, "latencyMillis": 7}""").post("/placements/" + id + "/completion")
                .then().statusCode(400).body("errors.pointer", contains("/latencyMillis"));
    }
}
