package dev.continuum.engine.domain.triggers;

import java.util.UUID;

/** What became of one event, as the trigger's event list shows it. */
public sealed interface EventOutcome {

    String name();

    record Started(UUID runId) implements EventOutcome {
        public String name() { return "started"; }
    }

    record FilteredOut(String reason) implements EventOutcome {
        public String name() { return "filtered"; }
    }

    record Rejected(String reason) implements EventOutcome {
        public String name() { return "rejected"; }
    }

    /** Seen before: {@code runId} is the run the first delivery started, if it started one. */
    record Duplicate(UUID runId, String firstOutcome) implements EventOutcome {
        public String name() { return "duplicate"; }
    }

    /** Not started by a test fire with {@code dry_run}: the input the run would get. */
    record DryRun(com.fasterxml.jackson.databind.JsonNode input) implements EventOutcome {
        public String name() { return "dry_run"; }
    }
}
