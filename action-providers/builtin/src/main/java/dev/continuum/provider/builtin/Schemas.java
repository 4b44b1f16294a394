package dev.continuum.provider.builtin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;

/** Input schemas are written as JSON text beside each provider; this reads them once. */
final class Schemas {

    private Schemas() {}

    static JsonNode parse(String json) {
        try {
            return ProviderJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a built-in input schema is not valid JSON", e);
        }
    }
}
