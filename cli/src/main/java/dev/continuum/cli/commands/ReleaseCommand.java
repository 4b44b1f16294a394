package dev.continuum.cli.commands;

import dev.continuum.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "release", mixinStandardHelpOptions = true,
        description = "Forget a finished run and its log (POST /runs/RUN_ID/release).")
public final class ReleaseCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Override
    public Integer call() {
        root().client().release(runId);
        if (json()) {
            out().println(root().mapper().createObjectNode().put("run_id", runId).put("released", true));
        } else {
            out().println("released " + runId);
        }
        return ExitCodes.OK;
    }
}
