package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineClient.RunFilter;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

@Command(name = "runs", mixinStandardHelpOptions = true, description = "List runs, newest first (GET /runs).",
        subcommands = RunUpdateCommand.class)
public final class RunsCommand extends EngineCommand {

    @Option(names = "--status", paramLabel = "STATUS", description = "Only runs in this status: ACTIVE, INACTIVE, SUCCEEDED, FAILED, ENDED.")
    String status;

    @Option(names = "--flow", paramLabel = "FLOW_ID", description = "Only runs of this flow.")
    String flowId;

    @Option(names = "--label", paramLabel = "LABEL", description = "Only runs with this label.")
    String label;

    @Option(names = "--tag", paramLabel = "TAG", description = "Only runs with this tag.")
    String tag;

    @Mixin
    PageOptions paging;

    @Option(names = "--children-of", paramLabel = "RUN_ID",
            description = "Instead: the runs this run started by calling other flows (its child_run_ids), each as GET /runs/ID shows it.")
    String parentRunId;

    @Override
    public Integer call() {
        if (parentRunId != null) {
            return children();
        }
        // Status names are upper case on the wire; people type them either way.
        Optional<String> wanted = Optional.ofNullable(status).map(s -> s.toUpperCase(Locale.ROOT));
        JsonNode page = root().client().listRuns(new RunFilter(Optional.ofNullable(flowId), wanted,
                Optional.ofNullable(label), Optional.ofNullable(tag), paging.limit, paging.marker()));
        List<String> text = new ArrayList<>(Render.runTable(page));
        Paging.hint(page).ifPresent(text::add);
        show(page, text);
        return ExitCodes.OK;
    }

    /** GET /runs does not say which runs are children of which; the parent's own document does. */
    private Integer children() {
        ObjectNode page = root().mapper().createObjectNode();
        ArrayNode runs = page.putArray("runs");
        root().client().run(parentRunId).path("child_run_ids").forEach(child -> runs.add(root().client().run(child.asText())));
        show(page, Render.runTable(page));
        return ExitCodes.OK;
    }
}
