package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Show a run: status, times, and its error or output once finished (GET /runs/RUN_ID).")
public final class StatusCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Override
    public Integer call() {
        JsonNode run = root().client().run(runId);
        show(run, Render.run(run));
        return ExitCodes.OK;
    }
}
