package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

@Command(name = "versions", mixinStandardHelpOptions = true,
        description = {"A flow's versions, newest first: who saved each, when, and what it changed (GET /flows/FLOW_ID/versions).",
                "Run an older one with: continuum start FLOW_ID --version N."})
public final class FlowVersionsCommand extends EngineCommand {

    @Parameters(paramLabel = "FLOW_ID")
    String flowId;

    @Mixin
    PageOptions paging;

    @Override
    public Integer call() {
        JsonNode page = root().client().flowVersions(flowId, paging.limit, paging.marker());
        List<String> text = new ArrayList<>();
        text.add(String.format("%7s  %-20s  %-20s  %s", "VERSION", "SAVED", "BY", "CHANGES"));
        for (JsonNode version : page.path("versions")) {
            text.add(String.format("%7d  %-20s  %-20s  %s", version.path("version").asInt(), Render.time(version, "created_at"),
                    Render.text(version, "created_by"), Render.text(version, "summary")));
        }
        Paging.hint(page).ifPresent(text::add);
        show(page, text);
        return ExitCodes.OK;
    }
}
