package dev.continuum.provider.training.provider;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;

/** The request's JSON schema: what can be checked without knowing the backend. */
final class Schemas {
    static final JsonNode REQUEST = read("""
        {"type": "object",
         "properties": {
           "command": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                       "description": "program and arguments, run directly (local and Slurm backends)"},
           "image": {"type": "string", "minLength": 1, "description": "container image (Kubernetes backend)"},
           "args": {"type": "array", "items": {"type": "string"}},
           "env": {"type": "object", "additionalProperties": {"type": "string"}},
           "datasets": {"type": "array", "items": {"type": "string"},
                        "description": "transfer endpoint references of the training data"},
           "gpus_min": {"type": "integer", "minimum": 0, "maximum": 4096},
           "gpus_max": {"type": "integer", "minimum": 0, "maximum": 4096},
           "gpu_model": {"type": "string", "minLength": 1},
           "cpus": {"type": "integer", "minimum": 1, "maximum": 4096},
           "memory_mb": {"type": "integer", "minimum": 0},
           "time_limit_seconds": {"type": "integer", "minimum": 1, "maximum": 31622400},
           "checkpoint_location": {"type": "string", "minLength": 1},
           "output_location": {"type": "string", "minLength": 1},
           "priority": {"type": "integer", "minimum": -1000, "maximum": 1000},
           "deadline": {"type": "string", "description": "ISO-8601 instant"},
           "elastic": {"type": "boolean"},
           "partition": {"type": "string", "minLength": 1},
           "grace_seconds": {"type": "integer", "minimum": 0, "maximum": 3600,
                             "description": "time to checkpoint and exit after the signal before the job is killed"}
         },
         "additionalProperties": false,
         "anyOf": [{"required": ["command"]}, {"required": ["image"]}]}""");

    private Schemas() {
    }

    private static JsonNode read(String json) {
        try {
            return ProviderJson.mapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
