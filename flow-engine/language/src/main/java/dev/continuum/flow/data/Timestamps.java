package dev.continuum.flow.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/** RFC 3339 timestamps as flows write them (Wait, Choice): one reading for the validator and the interpreter. */
public final class Timestamps {

    private Timestamps() {
    }

    /** The instant a JSON string names, such as 2024-08-18T17:33:00Z; empty for anything else. */
    public static Optional<Instant> parse(JsonNode value) {
        if (!value.isTextual()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(value.asText()).toInstant());
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
