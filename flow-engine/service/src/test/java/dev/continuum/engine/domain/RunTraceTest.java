package dev.continuum.engine.domain;

import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A run's trace id is its id without dashes, and its root span id the id's low 64 bits, both as fixed-width hex. */
class RunTraceTest {

    @Test
    void shouldTraceARunUnderItsOwnIdWithZeroPaddedHex() {
        UUID runId = UUID.fromString("00000000-0000-00ab-0000-0000000000cd");

        RunTrace trace = RunTrace.of(runId);

        assertThat(trace.traceId()).isEqualTo("00000000000000ab00000000000000cd").isEqualTo(runId.toString().replace("-", ""));
        assertThat(trace.rootSpanId()).isEqualTo("00000000000000cd");
    }

    @Test
    void shouldNeverGiveTheAllZeroSpanIdThatTracingRefuses() {
        assertThat(RunTrace.of(new UUID(7, 0)).rootSpanId()).isEqualTo("0000000000000001");
    }
}
