package dev.continuum.provider.transfer.provider;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;

/** Input schemas: loose on shape (two Globus shapes are accepted), strict on types; rules a schema cannot say are in the readers. */
final class Schemas {

    private Schemas() {}

    static final JsonNode TRANSFER = read("""
            {"type": "object",
             "properties": {
               "source_endpoint_id": {"type": "string"}, "destination_endpoint_id": {"type": "string"},
               "source_endpoint": {"type": "string"}, "destination_endpoint": {"type": "string"},
               "transfer_items": {"type": "array", "items": {"$ref": "#/$defs/item"}},
               "DATA": {"type": "array", "items": {"$ref": "#/$defs/item"}},
               "recursive": {"type": "boolean"},
               "sync_level": {"type": ["integer", "string"]},
               "verify_checksum": {"type": "boolean"},
               "checksum_algorithm": {"type": "string"},
               "label": {"type": "string"},
               "deadline": {"type": "string"}
             },
             "$defs": {"item": {"type": "object", "required": ["source_path", "destination_path"],
               "properties": {"source_path": {"type": "string"}, "destination_path": {"type": "string"},
                              "recursive": {"type": "boolean"}}}}}""");

    static final JsonNode LS = read("""
            {"type": "object",
             "properties": {"endpoint_id": {"type": "string"}, "endpoint": {"type": "string"},
                            "path": {"type": "string"}, "limit": {"type": "integer", "minimum": 1},
                            "offset": {"type": "integer", "minimum": 0}, "path_only": {"type": "boolean"}}}""");

    static final JsonNode MKDIR = read("""
            {"type": "object", "required": ["path"],
             "properties": {"endpoint_id": {"type": "string"}, "endpoint": {"type": "string"},
                            "path": {"type": "string"}}}""");

    static final JsonNode DELETE = read("""
            {"type": "object",
             "properties": {"endpoint_id": {"type": "string"}, "endpoint": {"type": "string"},
                            "items": {"type": "array"}, "DATA": {"type": "array"},
                            "recursive": {"type": "boolean"}, "ignore_missing": {"type": "boolean"},
                            "label": {"type": "string"}}}""");

    private static JsonNode read(String json) {
        try {
            return ProviderJson.mapper().readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
