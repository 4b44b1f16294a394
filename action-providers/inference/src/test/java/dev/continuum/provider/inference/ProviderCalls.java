package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.TestModels;
import org.awaitility.core.ConditionTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/** The provider's HTTP API as the engine calls it, for tests that run provider instances in-process. */
final class ProviderCalls {

    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private ProviderCalls() {}

    /** A /run document classifying the demo model's test image {@code imageSeed} under {@code requestId}. */
    static ObjectNode classify(String requestId, int imageSeed) {
        ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls@1");
        body.set("input", Wire.mapper().valueToTree(Tensor.compact(TestModels.CLS_SHAPE, TestModels.image(imageSeed, 1))));
        ObjectNode doc = Wire.mapper().createObjectNode().put("request_id", requestId);
        doc.set("body", body);
        return doc;
    }

    static JsonNode post(String url, JsonNode body) throws Exception {
        return Wire.mapper().readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    static JsonNode get(String url) throws Exception {
        return Wire.mapper().readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    /** The action's status once it is no longer ACTIVE, or its last status after two minutes (a site lost mid-job waits out the 10 s re-placement grace, slow on a loaded machine). */
    static JsonNode awaitFinal(String statusUrl) throws Exception {
        try {
            return await("the action at " + statusUrl + " leaves ACTIVE").atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> get(statusUrl), status -> !status.path("status").asText().equals("ACTIVE"));
        } catch (ConditionTimeoutException stillActive) {
            return get(statusUrl); // the caller's assertion says what it is
        }
    }
}
