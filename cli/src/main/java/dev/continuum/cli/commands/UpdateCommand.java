package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.files.FlowFile;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;

@Command(name = "update", mixinStandardHelpOptions = true,
        description = {"Publish a new version of a flow (PUT /flows/FLOW_ID); runs already started keep their version.",
                "Fields the file leaves out keep their current value."})
public final class UpdateCommand extends EngineCommand {

    @Parameters(index = "0", paramLabel = "FLOW_ID")
    String flowId;

    @Parameters(index = "1", paramLabel = "FILE", description = "The flow file (JSON).")
    Path file;

    @Option(names = "--title", paramLabel = "TITLE", description = "New title of the flow.")
    String title;

    @Override
    public Integer call() {
        ObjectNode document = FlowFile.read(file, root().api(), root().mapper()).document();
        if (title != null) {
            document.put("title", title);
        }
        JsonNode updated = root().client().updateFlow(flowId, document);
        show(updated, List.of(Render.text(updated, "id") + " version " + updated.path("version").asInt()));
        return ExitCodes.OK;
    }
}
