package dev.continuum.cli.commands;

import picocli.CommandLine.Option;

/** How a run is followed; shared by {@code watch} and {@code start --watch}. */
final class FollowOptions {

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
            description = "Seconds between polls of the engine while following (default ${DEFAULT-VALUE}).")
    double intervalSeconds;

    @Option(names = "--patience", paramLabel = "SECONDS", defaultValue = "60",
            description = "While following, keep retrying this long when the engine stops answering, e.g. while it "
                    + "restarts (default ${DEFAULT-VALUE}).")
    double patienceSeconds;
}
