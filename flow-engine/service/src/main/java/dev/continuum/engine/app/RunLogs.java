package dev.continuum.engine.app;

import dev.continuum.engine.domain.RunTrace;
import org.jboss.logging.MDC;

import java.util.UUID;

/**
 * A log line about one run carries the run's trace id (MDC key {@code traceId}, in the console format), so the
 * lines of a run and its spans are found by one search.
 */
public final class RunLogs {

    public static final String TRACE_ID = "traceId";

    private RunLogs() {}

    /** Runs {@code line} (a logging call) with {@code runId}'s trace id in the MDC, restoring what was there. */
    public static void about(UUID runId, Runnable line) {
        Object before = MDC.get(TRACE_ID);
        MDC.put(TRACE_ID, RunTrace.of(runId).traceId());
        try {
            line.run();
        } finally {
            if (before == null) {
                MDC.remove(TRACE_ID);
            } else {
                MDC.put(TRACE_ID, before);
            }
        }
    }
}
