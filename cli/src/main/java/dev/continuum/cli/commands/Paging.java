package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Optional;

final class Paging {

    private Paging() {}

    /** Tells the user how to see the next page when the engine says there is one (Globus' marker paging). */
    static Optional<String> hint(JsonNode page) {
        return page.path("has_next_page").asBoolean(false) && page.hasNonNull("marker")
                ? Optional.of("(more: add --marker " + page.path("marker").asText() + ")")
                : Optional.empty();
    }
}
