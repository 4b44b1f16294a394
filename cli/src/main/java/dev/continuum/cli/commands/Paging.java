package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Optional;

final class Paging {

    private Paging() {}

    /** Tells the user how to see the next page when the engine says there is one. */
    static Optional<String> hint(JsonNode page, int limit, int offset) {
        return page.path("has_next_page").asBoolean(false)
                ? Optional.of("(more: add --offset " + (offset + limit) + ")")
                : Optional.empty();
    }
}
