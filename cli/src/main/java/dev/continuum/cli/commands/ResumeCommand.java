package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = "Resume an INACTIVE run, e.g. after granting consent (POST /runs/RUN_ID/resume).")
public final class ResumeCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Override
    public Integer call() {
        JsonNode run = root().client().resume(runId);
        show(run, List.of(Render.text(run, "run_id") + " " + Render.text(run, "status")));
        return ExitCodes.OK;
    }
}
