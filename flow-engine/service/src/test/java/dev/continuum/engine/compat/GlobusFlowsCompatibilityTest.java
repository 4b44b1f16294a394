package dev.continuum.engine.compat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real Globus flows (../shared/globus-flows) through the public API, with Globus-hosted ActionUrls mapped by
 * configuration to the built-in providers (application.properties: continuum.providers.url-map).
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class GlobusFlowsCompatibilityTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * 018's example input carries a key its own schema forbids (additionalProperties: false), so the start is
     * refused naming it, as Globus refuses it; without that key the run reads a result path the flow never
     * writes and fails naming the state, as it does on Globus.
     */
    private static final String SCHEMA_BREAKING_INPUT = "018-end-to-end-all-providers";
    private static final String FORBIDDEN_KEY = "destination_path_parent_dir";

    @Test
    void shouldPublishEveryValidGlobusFlow() throws IOException {
        Path shared = sharedFlows();
        List<String> refused = new ArrayList<>();
        for (Path file : flows(shared.resolve("valid"), shared.resolve("valid-cases"))) {
            Response response = given().contentType(ContentType.JSON).body(document(file).toString()).post("/flows");
            if (response.statusCode() != 201) {
                refused.add(file.getFileName() + " -> " + response.body().asString());
            }
        }
        assertThat(refused).isEmpty();
    }

    @Test
    void shouldRefuseEveryInvalidGlobusFlowNamingThePlace() throws IOException {
        Path shared = sharedFlows();
        List<String> accepted = new ArrayList<>();
        for (Path file : flows(shared.resolve("invalid"))) {
            ObjectNode body = JSON.createObjectNode().set("definition", JSON.readTree(file.toFile()));
            Response response = given().contentType(ContentType.JSON).body(body.toString()).post("/flows/validate");
            if (response.statusCode() != 400 || response.jsonPath().getList("errors.pointer").isEmpty()) {
                accepted.add(file.getFileName().toString());
            }
        }
        assertThat(accepted).isEmpty();
    }

    @Test
    void shouldRunEveryValidGlobusFlowThatHasAnExampleInput() throws IOException {
        Path valid = sharedFlows().resolve("valid");
        Map<String, String> outcomes = new TreeMap<>();
        for (Path file : flows(valid)) {
            String name = file.getFileName().toString().replace(".json", "");
            Path input = valid.resolve(name + ".input.json");
            if (!Files.exists(input)) {
                continue;
            }
            String flowId = given().contentType(ContentType.JSON).body(document(file).toString())
                    .post("/flows").then().statusCode(201).extract().path("id");
            Response started = given().contentType(ContentType.JSON)
                    .body("{\"body\":" + Files.readString(input) + ",\"label\":\"" + name + "\"}")
                    .post("/flows/" + flowId + "/run");
            if (name.equals(SCHEMA_BREAKING_INPUT)) {
                assertThat(started.statusCode()).isEqualTo(400);
                assertThat(started.body().asString()).contains(FORBIDDEN_KEY);
                ObjectNode fixed = (ObjectNode) JSON.readTree(input.toFile());
                fixed.remove(FORBIDDEN_KEY);
                started = given().contentType(ContentType.JSON)
                        .body("{\"body\":" + fixed + ",\"label\":\"" + name + "\"}").post("/flows/" + flowId + "/run");
            }
            String runId = started.then().statusCode(201).extract().path("run_id");
            String status = Flows.awaitStatus(runId, Duration.ofSeconds(30), "SUCCEEDED", "FAILED");
            String cause = Flows.run(runId).extract().path("details.cause");
            outcomes.put(name, status + (cause == null ? "" : " " + cause));
        }
        System.out.println("Globus flow outcomes: " + outcomes);
        assertThat(outcomes).hasSizeGreaterThanOrEqualTo(10);
        outcomes.forEach((name, outcome) -> {
            if (name.equals(SCHEMA_BREAKING_INPUT)) {
                assertThat(outcome).as(name).startsWith("FAILED").contains("Stage2LsFailed");
            } else {
                assertThat(outcome).as(name).isEqualTo("SUCCEEDED");
            }
        });
    }

    /** A flow document as the API takes it: the definition plus its input schema when the source had one. */
    private static ObjectNode document(Path file) throws IOException {
        ObjectNode doc = JSON.createObjectNode();
        doc.put("title", file.getFileName().toString());
        doc.set("definition", JSON.readTree(file.toFile()));
        Path schema = file.resolveSibling(file.getFileName().toString().replace(".json", ".schema.json"));
        if (Files.exists(schema)) {
            JsonNode schemaNode = JSON.readTree(schema.toFile());
            doc.set("input_schema", schemaNode);
        }
        return doc;
    }

    private static List<Path> flows(Path... dirs) throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : dirs) {
            try (Stream<Path> list = Files.list(dir)) {
                list.filter(p -> p.toString().endsWith(".json") && !p.toString().endsWith(".schema.json")
                        && !p.toString().endsWith(".input.json")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    private static Path sharedFlows() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolveSibling("shared").resolve("globus-flows");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
            dir = dir.getParent();
        }
        Assumptions.abort("../shared/globus-flows is not present beside the repository");
        return null;
    }
}
