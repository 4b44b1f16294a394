package dev.continuum.engine.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import org.jboss.logging.MDC;
import org.junit.jupiter.api.Test;

/** A log line about a run carries the run's trace id (its id without dashes), and the line after it does not. */
class RunLogsTest {

    @Test
    void shouldPutTheRunsTraceIdInTheMdcForItsLineOnly() {
        UUID runId = UUID.fromString("3f2a6c1e-9b7d-4e21-8a55-0c4d2e1f9a70");
        Object[] during = new Object[1];
        MDC.put(RunLogs.TRACE_ID, "a request's trace");

        RunLogs.about(runId, () -> during[0] = MDC.get(RunLogs.TRACE_ID));

        assertThat(during[0]).isEqualTo("3f2a6c1e9b7d4e218a550c4d2e1f9a70");
        assertThat(MDC.get(RunLogs.TRACE_ID)).as("what was there before comes back").isEqualTo("a request's trace");
        MDC.remove(RunLogs.TRACE_ID);
    }
}
