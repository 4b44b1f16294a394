package dev.continuum.cli.commands;

import dev.continuum.cli.ExitCodes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.util.List;

@Command(name = "delete", mixinStandardHelpOptions = true,
        description = "Delete a flow (DELETE /flows/FLOW_ID); only its owners may.")
public final class FlowDeleteCommand extends EngineCommand {

    @Parameters(paramLabel = "FLOW_ID")
    String flowId;

    @Override
    public Integer call() {
        root().client().deleteFlow(flowId);
        show(root().mapper().createObjectNode().put("deleted", flowId), List.of("deleted " + flowId));
        return ExitCodes.OK;
    }
}
