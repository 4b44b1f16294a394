package dev.continuum.cli.commands;

import picocli.CommandLine.Option;

import java.util.Optional;

/** --limit and --marker of the marker-paged lists (flows, runs, a flow's versions). */
final class PageOptions {

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most this many (1-1000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--marker", paramLabel = "MARKER", description = "Show the page after the one that printed this marker.")
    String marker;

    Optional<String> marker() {
        return Optional.ofNullable(marker);
    }
}
