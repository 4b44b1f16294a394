package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.domain.EngineError;

import java.util.UUID;

final class Ids {
    private Ids() {}

    static UUID parse(String value, String name) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw EngineError.invalidField("/" + name, "'" + value + "' is not a valid id (expected a UUID).");
        }
    }
}
