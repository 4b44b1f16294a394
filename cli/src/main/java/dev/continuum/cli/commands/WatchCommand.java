package dev.continuum.cli.commands;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

@Command(name = "watch", mixinStandardHelpOptions = true,
        description = {"Follow a run: print its log as events arrive and its status as it changes, until it finishes.",
                "Prints the output at the end. Exits 0 when the run SUCCEEDED, 1 when it FAILED or was ENDED.",
                "With --json: one JSON line per log entry, then the final run as one JSON line."})
public final class WatchCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Mixin
    FollowOptions follow;

    @Override
    public Integer call() throws InterruptedException {
        return new RunFollower(root(), runId, follow.intervalSeconds, follow.patienceSeconds).follow();
    }
}
