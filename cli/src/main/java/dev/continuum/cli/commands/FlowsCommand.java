package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

@Command(name = "flows", mixinStandardHelpOptions = true, description = "List published flows (GET /flows).")
public final class FlowsCommand extends EngineCommand {

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most this many (1-1000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--offset", paramLabel = "N", defaultValue = "0", description = "Skip this many.")
    int offset;

    @Override
    public Integer call() {
        JsonNode page = root.client().listFlows(limit, offset);
        List<String> text = new ArrayList<>(Render.flowTable(page));
        Paging.hint(page, limit, offset).ifPresent(text::add);
        show(page, text);
        return ExitCodes.OK;
    }
}
