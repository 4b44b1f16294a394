package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineUnreachable;
import dev.continuum.cli.output.Render;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
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

    @Option(names = "--patience", paramLabel = "SECONDS", defaultValue = "60",
            description = "Keep retrying this long when the engine stops answering mid-watch, e.g. while it restarts "
                    + "(default ${DEFAULT-VALUE}).")
    double patienceSeconds;

    private int marker;

    @Override
    public Integer call() throws InterruptedException {
        Duration interval = Duration.ofMillis(Math.max(10, Math.round(intervalSeconds * 1000)));
        Duration patience = Duration.ofMillis(Math.round(patienceSeconds * 1000));
        String shownStatus = null;
        Instant unreachableSince = null;
        while (true) {
            JsonNode run;
            try {
                run = poll();
            } catch (EngineUnreachable e) {
                // A run can outlive an engine restart; before the first answer, though, a wrong --api is likelier.
                Instant now = Instant.now();
                if (shownStatus == null || unreachableSince != null && now.isAfter(unreachableSince.plus(patience))) {
                    throw e;
                }
                if (unreachableSince == null) {
                    unreachableSince = now;
                    root.err().println("-- cannot reach the engine at " + root.api() + "; retrying for up to "
                            + BigDecimal.valueOf(patienceSeconds).stripTrailingZeros().toPlainString() + " s");
                }
                Thread.sleep(interval);
                continue;
            }
            if (unreachableSince != null) {
                root.err().println("-- reconnected");
                unreachableSince = null;
            }
            String status = Render.text(run, "status");
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

    /**
     * Status first, log second: the engine commits a run's events with its status, so once a finished status is
     * seen, the log read afterwards holds every event up to the end.
     */
    private JsonNode poll() {
        JsonNode run = root.client().run(runId);
        printNewEntries();
        return run;
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
