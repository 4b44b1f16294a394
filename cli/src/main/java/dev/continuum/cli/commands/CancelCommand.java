package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.Optional;

@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = "Cancel a run (POST /runs/RUN_ID/cancel); it ends with status ENDED.")
public final class CancelCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why; kept in the run's log.")
    String reason;

    @Override
    public Integer call() {
        JsonNode run = root().client().cancel(runId, Optional.ofNullable(reason));
        show(run, List.of(Render.text(run, "run_id") + " " + Render.text(run, "status")));
        return ExitCodes.OK;
    }
}
