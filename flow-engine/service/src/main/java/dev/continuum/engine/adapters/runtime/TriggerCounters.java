package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.triggers.TriggerMetrics;
import dev.continuum.engine.domain.triggers.EventOutcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** {@code continuum_trigger_events_total{source, outcome}}: started, filtered, rejected, duplicate. */
@ApplicationScoped
public class TriggerCounters implements TriggerMetrics {

    private final MeterRegistry registry;

    public TriggerCounters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void counted(String sourceType, EventOutcome outcome) {
        Counter.builder("continuum.trigger.events").description("Events taken in by triggers, by source and outcome")
                .tag("source", sourceType).tag("outcome", outcome.name()).register(registry).increment();
    }
}
