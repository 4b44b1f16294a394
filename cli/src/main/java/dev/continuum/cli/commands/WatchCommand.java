package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.time.Duration;
import java.util.Set;

@Command(name = "watch", mixinStandardHelpOptions = true,
        description = {"Follow a run: print its log as events arrive and its status as it changes, until it finishes.",
                "Prints the output at the end. Exits 0 when the run SUCCEEDED, 1 when it FAILED or was ENDED.",
                "With --json: one JSON line per log entry, then the final run as one JSON line."})
public final class WatchCommand extends EngineCommand {

    private static final Set<String> FINISHED = Set.of("SUCCEEDED", "FAILED", "ENDED");

    @Parameters(paramLabel = "RUN_ID")
    String runId;

    @Option(names = "--interval", paramLabel = "SECONDS", defaultValue = "1",
            description = "Seconds between polls of the engine (default ${DEFAULT-VALUE}).")
    double intervalSeconds;

    private int marker;

    @Override
    public Integer call() throws InterruptedException {
        Duration interval = Duration.ofMillis(Math.max(10, Math.round(intervalSeconds * 1000)));
        String shownStatus = null;
        while (true) {
            // Status first, log second: the engine commits a run's events with its status, so once a finished status
            // is seen, draining the log afterwards shows every event up to the end.
            JsonNode run = root.client().run(runId);
            String status = Render.text(run, "status");
            printNewEntries();
            if (!status.equals(shownStatus)) {
                showStatus(run, status);
                shownStatus = status;
            }
            if (FINISHED.contains(status)) {
                finish(run);
                return "SUCCEEDED".equals(status) ? ExitCodes.OK : ExitCodes.NOT_OK;
            }
            Thread.sleep(interval);
        }
    }

    private void printNewEntries() {
        JsonNode page;
        do {
            page = root.client().log(runId, marker, LogsCommand.PAGE);
            for (JsonNode entry : page.path("entries")) {
                out().println(json() ? Render.compact(entry) : Render.event(entry));
                marker = Math.max(marker, entry.path("seq").asInt());
            }
            out().flush();
        } while (page.path("has_next_page").asBoolean(false) && !page.path("entries").isEmpty());
    }

    private void showStatus(JsonNode run, String status) {
        if (json() || FINISHED.contains(status)) {
            return;
        }
        out().println("-- " + status);
        String waiting = Render.text(run.path("details"), "inactive_reason");
        if ("INACTIVE".equals(status)) {
            out().println("-- waiting: " + (waiting.isEmpty() ? "for a person" : waiting)
                    + "; continue it with: continuum resume " + runId);
        }
        out().flush();
    }

    private void finish(JsonNode run) {
        if (json()) {
            out().println(Render.compact(run));
            return;
        }
        out().println("-- " + Render.text(run, "status"));
        Render.outcome(run).forEach(out()::println);
    }
}
