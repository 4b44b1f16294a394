package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/**
 * One event from a source. {@code dedupKey} names it across redeliveries (message id, webhook delivery id,
 * timer fire time): a trigger starts at most one run per key. {@code topic}: where a broker message came from
 * (null for other sources); templates read it as {@code $._context.topic}.
 */
public record TriggerEvent(String dedupKey, JsonNode payload, Instant receivedAt, String topic) {

    public TriggerEvent(String dedupKey, JsonNode payload, Instant receivedAt) {
        this(dedupKey, payload, receivedAt, null);
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

    /**
     * The payload of bytes a sender sent: malformed JSON is still an event, kept as a text saying why it is not
     * JSON, so it is recorded as rejected with the parser's reason rather than dropped.
     */
    public static JsonNode payloadOf(byte[] body) {
        try {
            JsonNode parsed = JSON.readTree(body);
            return parsed == null ? JSON.getNodeFactory().textNode("(not JSON: empty)") : parsed;
        } catch (java.io.IOException e) {
            return JSON.getNodeFactory().textNode("(not JSON: " + e.getMessage().lines().findFirst().orElse("") + ")");
        }
    }
}
