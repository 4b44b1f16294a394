package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineClient.RunFilter;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

@Command(name = "runs", mixinStandardHelpOptions = true, description = "List runs, newest first (GET /runs).")
public final class RunsCommand extends EngineCommand {

    @Option(names = "--status", paramLabel = "STATUS", description = "Only runs in this status: ACTIVE, INACTIVE, SUCCEEDED, FAILED, ENDED.")
    String status;

    @Option(names = "--flow", paramLabel = "FLOW_ID", description = "Only runs of this flow.")
    String flowId;

    @Option(names = "--label", paramLabel = "LABEL", description = "Only runs with this label.")
    String label;

    @Option(names = "--tag", paramLabel = "TAG", description = "Only runs with this tag.")
    String tag;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100", description = "At most this many (1-1000, default ${DEFAULT-VALUE}).")
    int limit;

    @Option(names = "--marker", paramLabel = "MARKER", description = "Show the page after the one that printed this marker.")
    String marker;

    @Override
    public Integer call() {
        // Status names are upper case on the wire; people type them either way.
        Optional<String> wanted = Optional.ofNullable(status).map(s -> s.toUpperCase(Locale.ROOT));
        JsonNode page = root.client().listRuns(new RunFilter(Optional.ofNullable(flowId), wanted,
                Optional.ofNullable(label), Optional.ofNullable(tag), limit, Optional.ofNullable(marker)));
        List<String> text = new ArrayList<>(Render.runTable(page));
        Paging.hint(page).ifPresent(text::add);
        show(page, text);
        return ExitCodes.OK;
    }
}
