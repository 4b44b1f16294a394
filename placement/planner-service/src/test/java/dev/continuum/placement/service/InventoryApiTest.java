package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PlannerTestProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Backends report their sites (training partitions) and transfers their rates; the planner decides with them. */
@QuarkusTest
@TestProfile(PlannerTestProfile.class)
class InventoryApiTest {

    private static String token;

    private static RequestSpecification api() {
        if (token == null) {
            token = KeycloakResource.token("scientist");
        }
        return given().auth().oauth2(token).contentType("application/json");
    }

    private static String slurm(String site, int gpusPerNode) {
        return """
                {"site": "%s", "backend": "slurm", "partitions": [
                  {"name": "gpu-a", "default": true, "nodes": ["a1", "a2"], "gpusPerNode": %d, "gpuModel": "V100",
                   "cpusPerNode": 16, "memoryMbPerNode": 64000},
                  {"name": "gpu-b", "nodes": ["a2", "b1"], "gpusPerNode": %d, "gpuModel": "V100",
                   "cpusPerNode": 16, "memoryMbPerNode": 64000}]}""".formatted(site, gpusPerNode, gpusPerNode);
    }

    @Test
    void shouldRefuseEveryInventoryCallWithoutAToken() {
        given().contentType("application/json").body(slurm("s", 2)).put("/inventory/partitions").then().statusCode(401);
        given().get("/inventory").then().statusCode(401);
        given().contentType("application/json").body("{}").post("/inventory/transfers").then().statusCode(401);
    }

    @Test
    void shouldPlaceTrainingOnAReportedPartitionAndForgetTheSiteWhenItsBackendGoes() {
        String site = "slurm-" + UUID.randomUUID().toString().substring(0, 6);
        api().body(slurm(site, 2)).put("/inventory/partitions").then().statusCode(200)
                .body("site.name", equalTo(site)).body("site.kind", equalTo("datacenter"))
                .body("site.nodes", equalTo(3)).body("site.gpus", equalTo(6)) // a2 is in both partitions, counted once
                .body("site.partitions.name", contains("gpu-a", "gpu-b"))
                .body("site.partitions.quotaGpus", contains(4, 4));
        api().get("/inventory").then().statusCode(200).body("sites.name", hasItem(site));

        String job = "train-" + site;
        JsonPath placed = api().body("""
                {"id": "%s", "kind": "training", "minGpus": 2, "partition": "gpu-b", "estimatedSeconds": 600,
                 "demand": {"gpus": 2, "gpuModels": ["V100"]}}""".formatted(job)).post("/placements")
                .then().statusCode(201).body("status", equalTo("placed")).body("site", equalTo(site))
                .extract().jsonPath();
        assertThat(placed.getString("decisions[0].decision.chosen.target")).matches("(a1|a2|b1) GPUs \\[0, 1\\]");

        // the backend now reports one GPU per node: the job is placed again on the new shape
        JsonPath reshaped = api().body(slurm(site, 1)).put("/inventory/partitions").then().statusCode(200)
                .body("site.gpus", equalTo(3)).extract().jsonPath();
        assertThat(reshaped.getList("decisions.id", String.class)).contains(job);

        api().delete("/inventory/sites/" + site).then().statusCode(200).body("id", hasItem(job))
                .body("status", hasItem("unplaceable"));
        api().get("/placements/" + job).then().body("status", equalTo("unplaceable"))
                .body("decisions[-1].decision.reasonBySite." + site, containsString("left the inventory"));
        api().delete("/inventory/sites/" + site).then().statusCode(404);
    }

    @Test
    void shouldRefuseABadReportNamingTheField() {
        api().body("""
                {"partitions": [{"name": "p", "nodes": ["n"], "gpusPerNode": -1},
                                {"name": "p", "nodes": [], "cpusPerNode": 4}]}""").put("/inventory/partitions")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.pointer", containsInAnyOrder("/site", "/partitions/0/gpusPerNode", "/partitions/1/name",
                        "/partitions/1/nodes"));
        api().body("""
                {"site": "x", "partitions": []}""").put("/inventory/partitions")
                .then().statusCode(400).body("errors.pointer", contains("/partitions"));
        api().body("""
                {"site": "x", "partitions": [{"name": "p", "nodes": ["n"], "gpus": 4}]}""").put("/inventory/partitions")
                .then().statusCode(400).body("errors.pointer", contains("/partitions/0/gpus"));
    }

    @Test
    void shouldLearnTheLinkFromAMeasuredTransfer() {
        // 50 MB from gw-2 (which has no bert) to the datacenter pool over the configured 100 Mbit/s: 4 s; measured at 50 MB/s: 1 s
        api().body("""
                {"fromEndpoint": "ep-gw-2", "toEndpoint": "datacenter", "bytes": 500000000, "seconds": 10}""")
                .post("/inventory/transfers").then().statusCode(200)
                .body("bytesPerSecond", equalTo(5.0E7f)).body("used", equalTo(true));
        String id = "after-transfer-" + UUID.randomUUID().toString().substring(0, 6);
        JsonPath p = api().body("""
                {"id": "%s", "kind": "inference", "model": "bert",
                 "data": [{"endpointId": "ep-gw-2", "path": "/in/x", "sizeBytes": 50000000}]}""".formatted(id))
                .post("/placements").then().statusCode(201).body("site", equalTo("dc-pool")).extract().jsonPath();
        assertThat(p.getString("decisions[0].decision.chosen.explanation")).contains("measured");
        assertThat(p.getLong("decisions[0].decision.chosen.latency.transferMillis")).isLessThan(4000);

        api().body("""
                {"fromEndpoint": "ep-gw-1", "toEndpoint": "datacenter", "bytesPerSecond": -3}""")
                .post("/inventory/transfers").then().statusCode(400).body("errors.pointer", contains("/bytesPerSecond"));
        api().body("""
                {"toEndpoint": "datacenter", "bytes": 10}""")
                .post("/inventory/transfers").then().statusCode(400)
                .body("errors.pointer", containsInAnyOrder("/fromEndpoint", "/bytesPerSecond"));
        api().body("""
                {"fromEndpoint": "nowhere", "toEndpoint": "datacenter", "bytesPerSecond": 10}""")
                .post("/inventory/transfers").then().statusCode(200).body("used", equalTo(false));
    }

    @Test
    void shouldDeferATrainingJobThatCanWaitIntoTheCleanWindowUnderGreen() {
        long now = java.time.Instant.now().getEpochSecond();
        String id = "green-" + UUID.randomUUID().toString().substring(0, 6);
        // the test profile runs fifo+green with a series in which dc-train is clean an hour from now
        JsonPath p = api().body("""
                {"id": "%s", "kind": "training", "minGpus": 1, "partition": "research", "estimatedSeconds": 1800,
                 "deadlineEpochSeconds": %d}""".formatted(id, now + 4 * 3600)).post("/placements")
                .then().statusCode(201).body("status", equalTo("queued")).body("site", equalTo("dc-train"))
                .extract().jsonPath();
        assertThat(p.getString("decisions[0].decision.reasons[0]")).startsWith("deferred by green until ")
                .contains("100.0 then against 500.0 now");
        // without a deadline it cannot wait: it is not deferred (it runs, or queues only if other tests filled dc-train)
        JsonPath asap = api().body("""
                {"id": "%s-now", "kind": "training", "minGpus": 1, "partition": "research", "estimatedSeconds": 1800}"""
                .formatted(id)).post("/placements").then().statusCode(201).extract().jsonPath();
        assertThat(asap.getList("decisions[0].decision.reasons", String.class)).noneMatch(r -> r.startsWith("deferred"));
    }
}
