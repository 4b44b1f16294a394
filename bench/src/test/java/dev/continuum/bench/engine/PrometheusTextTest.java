package dev.continuum.bench.engine;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTextTest {

    private static final String EXPOSITION = """
            # HELP continuum_transitions_total Committed run state transitions
            # TYPE continuum_transitions_total counter
            continuum_transitions_total 1234.0
            continuum_transitions_total_created 1.7E9
            continuum_action_call_seconds_count{quantile="0.5"} 8.0
            """;

    @Test
    void shouldReadTheCounterIgnoringLongerNamesWithTheSamePrefix() {
        assertThat(PrometheusText.counter(EXPOSITION, "continuum_transitions_total")).hasValue(1234.0);
    }

    @Test
    void shouldSumACounterOverItsLabelSets() {
        String labelled = """
                requests_total{instance="a"} 2.0
                requests_total{instance="b"} 3.0
                """;
        assertThat(PrometheusText.counter(labelled, "requests_total")).hasValue(5.0);
    }

    @Test
    void shouldBeEmptyWhenTheEngineDoesNotExportTheCounter() {
        assertThat(PrometheusText.counter(EXPOSITION, "missing_total")).isEmpty();
    }
}
