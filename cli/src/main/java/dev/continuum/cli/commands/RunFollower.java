package dev.continuum.cli.commands;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.cli.ContinuumCommand;
import dev.continuum.cli.ExitCodes;
import dev.continuum.cli.client.EngineUnreachable;
import dev.continuum.cli.output.Render;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * Follows one run until it finishes: prints log entries as they arrive and the status as it changes, rides out an
 * engine restart, and answers with the exit code {@code watch} promises (0 SUCCEEDED, 1 FAILED or ENDED).
 */
final class RunFollower {

    private static final Set<String> FINISHED = Set.of("SUCCEEDED", "FAILED", "ENDED");

    private final ContinuumCommand root;
    private final String runId;
    private final double intervalSeconds;
    private final double patienceSeconds;

    RunFollower(ContinuumCommand root, String runId, double intervalSeconds, double patienceSeconds) {
        this.root = root;
        this.runId = runId;
        this.intervalSeconds = intervalSeconds;
        this.patienceSeconds = patienceSeconds;
    }

    private int marker;

    int follow() throws InterruptedException {
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
                root.out().println(root.json() ? Render.compact(entry) : Render.event(entry));
                marker = Math.max(marker, entry.path("seq").asInt());
            }
            root.out().flush();
        } while (page.path("has_next_page").asBoolean(false) && !page.path("entries").isEmpty());
    }

    private void showStatus(JsonNode run, String status) {
        if (root.json() || FINISHED.contains(status)) {
            return;
        }
        root.out().println("-- " + status);
        String waiting = Render.text(run.path("details"), "inactive_reason");
        if ("INACTIVE".equals(status)) {
            root.out().println("-- waiting: " + (waiting.isEmpty() ? "for a person" : waiting)
                    + "; continue it with: continuum resume " + runId);
        }
        root.out().flush();
    }

    private void finish(JsonNode run) {
        if (root.json()) {
            root.out().println(Render.compact(run));
            return;
        }
        root.out().println("-- " + Render.text(run, "status"));
        Render.outcome(run).forEach(root.out()::println);
    }
}
