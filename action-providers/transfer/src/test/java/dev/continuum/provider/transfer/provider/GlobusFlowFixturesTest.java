package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.endpoint.Endpoint;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.provider.transfer.testing.ProviderHarness;
import dev.continuum.provider.transfer.testing.Trees;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transfer, delete and ls states of real Globus flows (../shared/globus-flows/valid), with
 * their Parameters resolved against the flows' own example inputs exactly as the engine would,
 * sent unchanged to this provider once their ActionUrls map to it.
 */
class GlobusFlowFixturesTest {

    @TempDir Path tmp;
    private ProviderHarness harness;

    @AfterEach
    void stop() throws Exception {
        if (harness != null) {
            harness.close();
        }
    }

    private static Path flows() {
        return dev.continuum.provider.transfer.testing.SharedFlows.valid();
    }

    private static JsonNode read(Path file) throws IOException {
        return ProviderJson.mapper().readTree(file.toFile());
    }

    private void serve(String... endpointIds) throws Exception {
        EndpointRegistry registry = new EndpointRegistry();
        for (String id : endpointIds) {
            registry.register(new Endpoint(id, "directory", "local:anonymous", Set.of(), Set.of(),
                    new LocalStorage(tmp.resolve(dir(id)))));
        }
        harness = new ProviderHarness(registry, tmp.resolve("state"));
    }

    private static String dir(String endpointId) {
        return "ep-" + endpointId.replaceAll("[^A-Za-z0-9-]", "_");
    }

    /** Runs the flow's Action states in order against this provider; returns their final statuses. */
    private List<JsonNode> runActionStates(JsonNode flow, JsonNode input) {
        List<JsonNode> results = new ArrayList<>();
        String name = flow.get("StartAt").asText();
        while (name != null) {
            JsonNode state = flow.get("States").get(name);
            if (state.path("Type").asText().equals("Action")) {
                String url = state.get("ActionUrl").asText();
                String provider = url.substring(url.lastIndexOf('/'));
                JsonNode body = resolve(state.get("Parameters"), input);
                Http.Answer a = harness.http.run(provider, body, null);
                assertThat(a.status()).as("%s %s -> %s", name, body, a.json()).isIn(200, 202);
                results.add(harness.http.await(provider, a.json().get("action_id").asText(), null, Duration.ofSeconds(30)));
            }
            name = state.path("End").asBoolean() ? null : state.path("Next").asText(null);
            if (name != null && !flow.get("States").get(name).path("Type").asText().equals("Action")) {
                break;   // Choice/Wait states need the engine; the action states before them were run
            }
        }
        return results;
    }

    /** Parameters as the engine passes them: "k.$" JSONPath references and the "[`$.x`]" expression form. */
    private static JsonNode resolve(JsonNode template, JsonNode input) {
        if (template.isArray()) {
            ArrayNode out = ProviderJson.mapper().createArrayNode();
            template.forEach(t -> out.add(resolve(t, input)));
            return out;
        }
        if (!template.isObject()) {
            return template;
        }
        ObjectNode out = ProviderJson.mapper().createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = template.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String key = e.getKey();
            if (key.endsWith(".$")) {
                out.set(key.substring(0, key.length() - 2), path(input, e.getValue().asText()));
            } else if (key.endsWith(".=")) {
                String expr = e.getValue().asText();
                assertThat(expr).as("only the one-element list form is used by these flows").matches("\\[`\\$\\.[a-z_]+`]");
                out.set(key.substring(0, key.length() - 2),
                        ProviderJson.mapper().createArrayNode().add(path(input, expr.substring(2, expr.length() - 2))));
            } else {
                out.set(key, resolve(e.getValue(), input));
            }
        }
        return out;
    }

    private static JsonNode path(JsonNode input, String jsonPath) {
        JsonNode node = input;
        for (String part : jsonPath.substring(2).split("\\.")) {
            node = node.path(part);
        }
        return node;
    }

    @Test
    void shouldRunTheSingleTransferFlowUnchanged() throws Exception {
        Path flows = flows();
        assumeTrue(flows != null, "../shared/globus-flows is not present");
        serve("go#ep1", "go#ep2");
        Trees.file(tmp.resolve(dir("go#ep1")).resolve("file1.txt"), 4096, 1);

        List<JsonNode> results = runActionStates(read(flows.resolve("014-single-transfer.json")),
                read(flows.resolve("014-single-transfer.input.json")));

        assertThat(results).singleElement().satisfies(r -> assertThat(r.get("status").asText()).isEqualTo("SUCCEEDED"));
        assertThat(tmp.resolve(dir("go#ep2")).resolve("copied_file1.txt"))
                .hasSameBinaryContentAs(tmp.resolve(dir("go#ep1")).resolve("file1.txt"));
    }

    @Test
    void shouldRunTheMoveFlowsTransferThenDeleteUnchanged() throws Exception {
        Path flows = flows();
        assumeTrue(flows != null, "../shared/globus-flows is not present");
        JsonNode input = read(flows.resolve("015-transfer-mv.input.json"));
        serve(input.get("source_endpoint_id").asText(), input.get("destination_endpoint_id").asText());
        Path source = tmp.resolve(dir(input.get("source_endpoint_id").asText())).resolve("source_folder");
        Trees.sample(source);
        var expected = Trees.digest(source);

        List<JsonNode> results = runActionStates(read(flows.resolve("015-transfer-mv.json")), input);

        assertThat(results).hasSizeGreaterThanOrEqualTo(1);
        assertThat(results.get(0).get("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(results.get(0).at("/details/label").asText()).isEqualTo(input.get("transfer_label").asText());
        assertThat(Trees.digest(tmp.resolve(dir(input.get("destination_endpoint_id").asText())).resolve("destination_folder")))
                .isEqualTo(expected);
    }

    @Test
    void shouldRunTheSingleDeleteFlowUnchanged() throws Exception {
        Path flows = flows();
        assumeTrue(flows != null, "../shared/globus-flows is not present");
        serve("go#ep1");
        Trees.file(tmp.resolve(dir("go#ep1")).resolve("file1.txt"), 10, 1);

        List<JsonNode> results = runActionStates(read(flows.resolve("013-single-delete.json")),
                read(flows.resolve("013-single-delete.input.json")));

        assertThat(results).singleElement().satisfies(r -> assertThat(r.get("status").asText()).isEqualTo("SUCCEEDED"));
        assertThat(tmp.resolve(dir("go#ep1")).resolve("file1.txt")).doesNotExist();
    }
}
