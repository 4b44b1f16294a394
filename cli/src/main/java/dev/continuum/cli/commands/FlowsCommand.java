package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.List;

@Command(name = "flows", mixinStandardHelpOptions = true, description = "List published flows (GET /flows).",
        subcommands = {FlowVersionsCommand.class, FlowDeleteCommand.class})
public final class FlowsCommand extends EngineCommand {

    @Mixin
    PageOptions page;

    @Override
    public Integer call() {
        JsonNode answer = root().client().listFlows(page.limit, page.marker());
        List<String> text = new ArrayList<>(Render.flowTable(answer));
        Paging.hint(answer).ifPresent(text::add);
        show(answer, text);
        return ExitCodes.OK;
    }
}
