package dev.continuum.provider.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.continuum.provider.client.FileCarrier.Order;
import io.vertx.core.Vertx;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A carried file's transfer (a checkpoint, an input) carries one label, cut to the 128 characters a Globus label allows, in both the request
 * and the transfer document, and never splits a character outside the Basic Multilingual Plane. The transfer
 * provider is this test's neighbour, so a small HTTP server stands in for it and keeps what it was sent.
 */
class TransferCarrierLabelTest {

    private final AtomicReference<JsonNode> sent = new AtomicReference<>();
    private HttpServer provider;
    private Vertx vertx;

    @BeforeEach
    void startProvider() throws Exception {
        provider = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        provider.createContext("/transfer/run", exchange -> {
            sent.set(new ObjectMapper().readTree(exchange.getRequestBody()));
            byte[] answer = """
                    {"action_id": "a1", "status": "ACTIVE", "creator_id": "urn:x", "details": {}}"""
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(202, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        provider.start();
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        provider.stop(0);
        vertx.close();
    }

    @Test
    void shouldSendTheSameLabelCutBetweenCharactersInTheRequestAndTheTransfer() throws Exception {
        String longLabel = "checkpoint of job 7 ".repeat(6) + "\uD83E\uDDEA".repeat(20);   // 120 chars + 20 test tubes
        TransferCarrier carrier = new TransferCarrier(new ActionProviderClient(vertx, ClientOptions.defaults()),
                "http://127.0.0.1:" + provider.getAddress().getPort() + "/transfer", () -> null, Duration.ofSeconds(10));

        carrier.start(new Order("req-1", "site-a", "/ckpt", "site-b", "/ckpt", true, longLabel));

        JsonNode body = sent.get();
        String requestLabel = body.path("label").asText();
        String transferLabel = body.path("body").path("label").asText();
        assertThat(requestLabel.codePointCount(0, requestLabel.length())).isEqualTo(128);
        assertThat(transferLabel).isEqualTo(requestLabel);
        assertThat(longLabel).startsWith(requestLabel);
        assertThat(Character.isHighSurrogate(requestLabel.charAt(requestLabel.length() - 1))).isFalse();
    }
}
