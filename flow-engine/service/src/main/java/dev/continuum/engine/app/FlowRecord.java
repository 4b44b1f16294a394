package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A flow at one version: its metadata and the definition runs of that version follow. */
public record FlowRecord(UUID id, String ownerId, int version, String title, String subtitle, String description,
                         List<String> keywords, JsonNode roles, JsonNode definition, JsonNode inputSchema,
                         Instant createdAt, Instant updatedAt) {}
