package dev.continuum.placement.core.planner.trace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.StringReader;
import org.junit.jupiter.api.Test;

/** Record a planner session, replay it: the same decisions, and a difference is found by line. */
class RecordAndReplayTest {
    private static Replayer.Result replay(String trace) {
        return Replayer.replay(new BufferedReader(new StringReader(trace)));
    }

    @Test
    void shouldReproduceEveryRecordedDecisionWhenATraceIsReplayed() {
        String trace = RecordedSession.record(400);

        Replayer.Result result = replay(trace);

        assertThat(result.mismatches()).isEmpty();
        assertThat(result.decisions()).isGreaterThanOrEqualTo(200);
        assertThat(trace).contains("\"type\":\"preempted\"", "\"type\":\"queued\"", "\"type\":\"refused\"",
                "\"type\":\"unplaceable\"", "SLO cannot be met", "learnt from");
    }

    @Test
    void shouldReportTheLineWhereReplayedDecisionsDifferFromTheRecording() {
        String trace = RecordedSession.record(100).replaceFirst("\"policy\":\"las\\+fgd\"", "\"policy\":\"fifo+worstfit\"");

        Replayer.Result result = replay(trace);

        assertThat(result.identical()).isFalse();
        assertThat(result.mismatches().getFirst()).matches("line \\d+: recorded .* but replay answered .*");
    }

    @Test
    void shouldReadACompletionRecordedBeforeQueueWaitsWereMeasuredAsNotMeasured() {
        // a trace line written before completions carried queuedMillis (2026-11-28): not a measured wait of 0 ms
        TraceEvent e = TraceCodec.read("{\"type\":\"observation\",\"observation\":{\"type\":\"completed\","
                + "\"requestId\":\"i1\",\"site\":\"gw-1\",\"model\":\"resnet\",\"computeMillis\":40,"
                + "\"atMillis\":5,\"overheadMillis\":12}}");

        assertThat(((TraceEvent.Observed) e).observation()).isEqualTo(new dev.continuum.placement.core.planner.Observation
                .JobCompleted("i1", "gw-1", "resnet", 40, 5, 12, dev.continuum.placement.core.planner.Observation.JobCompleted.NOT_MEASURED));
    }
}
