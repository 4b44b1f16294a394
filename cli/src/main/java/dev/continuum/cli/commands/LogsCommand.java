package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "logs", mixinStandardHelpOptions = true,
        description = "Print a run's whole event log so far (GET /runs/RUN_ID/log, every page).")
public final class LogsCommand extends EngineCommand {

    static final int PAGE = 1000;

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Override
    public Integer call() {
        ArrayNode entries = root().mapper().createArrayNode();
        int marker = 0;
        JsonNode page;
        do {
            page = root().client().log(runId, marker, PAGE);
            for (JsonNode entry : page.path("entries")) {
                entries.add(entry);
                marker = Math.max(marker, entry.path("seq").asInt());
            }
        } while (page.path("has_next_page").asBoolean(false) && !page.path("entries").isEmpty());
        if (json()) {
            ObjectNode log = root().mapper().createObjectNode();
            log.put("run_id", runId);
            log.set("entries", entries);
            out().println(Render.pretty(log));
        } else {
            entries.forEach(e -> out().println(Render.event(e)));
        }
        return ExitCodes.OK;
    }
}
