package dev.continuum.engine.app.triggers;

import dev.continuum.engine.domain.triggers.EventOutcome;

/** Counts events by source and outcome (Prometheus: adapters/runtime/TriggerCounters). */
public interface TriggerMetrics {

    void counted(String sourceType, EventOutcome outcome);
}
