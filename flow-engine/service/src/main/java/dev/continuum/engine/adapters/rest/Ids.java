package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.domain.EngineError;

import java.util.UUID;

final class Ids {
    private Ids() {}

    static UUID parse(String value, String name) {
        try {
            return UUID.fromString(value);
        } catch (IllegalArgumentException e) {
            throw EngineError.invalidField("/" + name, "'" + shown(value) + "' is not a valid id (expected a UUID).");
        }
    }

    /** A refused value is echoed only in part: a hostile 4,000-character id need not come back whole. */
    static String shown(String value) {
        return value.length() <= 64 ? value : value.substring(0, 64) + "…";
    }
}
