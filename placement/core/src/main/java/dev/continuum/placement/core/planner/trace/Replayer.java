package dev.continuum.placement.core.planner.trace;

import dev.continuum.placement.core.forecast.Forecast;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlannerConfig;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Feeds a recorded trace to a fresh planner built from the trace's own configuration and compares every answer
 * with the recorded one. Identical answers prove that the planner's decisions depend on its inputs alone.
 */
public final class Replayer {
    /**
     * Inputs fed, decisions compared, a line per difference (empty when the replay is identical), and the replayed
     * planner's arrival forecasts at the end of the trace.
     */
    public record Result(int inputs, int decisions, List<String> mismatches, List<Forecast> forecasts) {
        public Result {
            mismatches = List.copyOf(mismatches);
            forecasts = List.copyOf(forecasts);
        }

        public boolean identical() {
            return mismatches.isEmpty();
        }
    }

    private Replayer() {
    }

    public static Result replay(BufferedReader trace) {
        return replay(trace, UnaryOperator.identity(), d -> { });
    }

    /**
     * Replays under a configuration derived from the recorded one ({@code config}, e.g. another policy: a what-if on
     * the same inputs, which then differs from the recording), handing every replayed decision to {@code decided}.
     */
    public static Result replay(BufferedReader trace, UnaryOperator<PlannerConfig> config,
                                Consumer<PlacementDecision> decided) {
        try {
            return run(trace, config, decided);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the planner trace", e);
        }
    }

    private static Result run(BufferedReader trace, UnaryOperator<PlannerConfig> config,
                              Consumer<PlacementDecision> decided) throws IOException {
        String first = trace.readLine();
        if (first == null || !(TraceCodec.read(first) instanceof TraceEvent.Header header)) {
            throw new IllegalArgumentException("a planner trace starts with a header line");
        }
        if (header.version() != TraceEvent.VERSION) {
            throw new IllegalArgumentException("trace version " + header.version() + ", this replayer reads "
                    + TraceEvent.VERSION);
        }
        OnlinePlanner planner = new OnlinePlanner(config.apply(header.config()));
        int inputs = 0;
        int decisions = 0;
        List<String> mismatches = new ArrayList<>();
        int lineNo = 1;
        String line;
        while ((line = trace.readLine()) != null) {
            lineNo++;
            TraceEvent input = TraceCodec.read(line);
            TraceEvent replayed = apply(planner, input, lineNo);
            if (replayed instanceof TraceEvent.Decided d) {
                d.decisions().forEach(decided);
            }
            inputs++;
            String answerLine = trace.readLine();
            lineNo++;
            if (answerLine == null) {
                mismatches.add("line " + lineNo + ": the trace ends before the answer to line " + (lineNo - 1));
                break;
            }
            TraceEvent recorded = TraceCodec.read(answerLine);
            if (recorded instanceof TraceEvent.Decided d) {
                decisions += d.decisions().size();
            }
            if (!recorded.equals(replayed)) {
                mismatches.add("line " + lineNo + ": recorded " + TraceCodec.write(recorded) + " but replay answered "
                        + TraceCodec.write(replayed));
            }
        }
        return new Result(inputs, decisions, mismatches, planner.forecasts());
    }

    private static TraceEvent apply(OnlinePlanner planner, TraceEvent input, int lineNo) {
        List<PlacementDecision> out;
        switch (input) {
            case TraceEvent.InventoryChanged i -> out = planner.update(i.inventory(), i.atMillis());
            case TraceEvent.Arrived a -> {
                try {
                    out = planner.place(a.request(), a.atMillis()).decisions();
                } catch (InvalidRequestException e) {
                    return new TraceEvent.Refused(e.errors());
                }
            }
            case TraceEvent.Observed o -> out = planner.observe(o.observation());
            case TraceEvent.Restore r -> out = planner.restore(r.jobs(), r.atMillis());
            default -> throw new IllegalArgumentException("line " + lineNo + ": expected an input, found " + input);
        }
        return new TraceEvent.Decided(out);
    }
}
