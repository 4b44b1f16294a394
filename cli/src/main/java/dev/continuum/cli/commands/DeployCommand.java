package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.files.FlowFile;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;

@Command(name = "deploy", mixinStandardHelpOptions = true,
        description = {"Publish a flow (POST /flows) and print its id.",
                "FILE is a bare definition or a document {title, definition, input_schema, ...};",
                "without a title the file name is used. ${providers} in the file becomes <api>/providers."})
public final class DeployCommand extends EngineCommand {

    @Parameters(paramLabel = "FILE", description = "The flow file (JSON).")
    Path file;

    @Option(names = "--title", paramLabel = "TITLE", description = "Title of the flow; overrides the file's.")
    String title;

    @Override
    public Integer call() {
        FlowFile flow = FlowFile.read(file, root().api(), root().mapper());
        JsonNode created = root().client().createFlow(flow.withTitle(title));
        show(created, List.of(Render.text(created, "id")));
        return ExitCodes.OK;
    }
}
