package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

/**
 * One event from a source. {@code dedupKey} names it across redeliveries (message id, webhook delivery id,
 * timer fire time): a trigger starts at most one run per key.
 */
public record TriggerEvent(String dedupKey, JsonNode payload, Instant receivedAt) {}
