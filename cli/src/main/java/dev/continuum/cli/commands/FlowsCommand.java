package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@Command(name = "flows", mixinStandardHelpOptions = true, description = "List published flows (GET /flows).")
public final class FlowsCommand extends EngineCommand {

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most this many (1-1000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--marker", paramLabel = "MARKER", description = "Show the page after the one that printed this marker.")
    String marker;

    @Override
    public Integer call() {
        JsonNode page = root.client().listFlows(limit, Optional.ofNullable(marker));
        List<String> text = new ArrayList<>(Render.flowTable(page));
        Paging.hint(page).ifPresent(text::add);
        show(page, text);
        return ExitCodes.OK;
    }
}
