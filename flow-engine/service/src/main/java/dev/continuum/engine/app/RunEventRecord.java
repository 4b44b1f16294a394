package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;

public record RunEventRecord(int seq, String code, String stateName, String description, JsonNode details, Instant at) {}
