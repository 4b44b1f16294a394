package dev.continuum.provider.api;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** One entry of {@code GET /{action_id}/log}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record ActionLogEntry(
        @JsonProperty("time") Instant time,
        @JsonProperty("code") String code,
        @JsonProperty("description") String description,
        @JsonProperty("details") JsonNode details) {}
