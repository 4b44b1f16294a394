package dev.continuum.placement.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

/**
 * The planner contract's JSON mapping on the caller's side: instants as ISO-8601 text, nulls left out (as the
 * planner service writes them), and fields this version does not know ignored on reading, so a newer planner's
 * answers still read.
 */
public final class PlannerJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.ADJUST_DATES_TO_CONTEXT_TIME_ZONE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private PlannerJson() {}

    /** Shared and thread-safe; do not reconfigure it. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }
}
