package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.files.JsonFiles;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;

@Command(name = "redrive", mixinStandardHelpOptions = true,
        description = {"Start a FAILED run's next attempt (POST /runs/RUN_ID/redrive): from the state it failed in, or --state,"
                + " with that state's input as it was, or --input. The run keeps its id and log.",
                "Follow it with: continuum watch RUN_ID."})
public final class RedriveCommand extends EngineCommand {

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Option(names = "--state", paramLabel = "STATE", description = "A top-level state of the run's flow version to start again from.")
    String state;

    @Option(names = {"-i", "--input"}, paramLabel = "FILE|JSON",
            description = "That state's input instead of the one it had: a JSON object as a file, JSON text, or - for standard input.")
    String input;

    @Override
    public Integer call() {
        ObjectNode request = root().mapper().createObjectNode();
        if (state != null) {
            request.put("state", state);
        }
        if (input != null) {
            request.set("input", JsonFiles.fileOrJson(input, root().mapper()));
        }
        JsonNode run = root().client().redrive(runId, request);
        show(run, List.of(Render.text(run, "run_id") + " " + Render.text(run, "status")));
        return ExitCodes.OK;
    }
}
