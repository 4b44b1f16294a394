package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.bench.measure.FiveStepFlow;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.InterpreterOptions;
import dev.continuum.flow.run.RunContext;
import dev.continuum.flow.run.RunEvent;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.flow.run.Step;
import dev.continuum.flow.validation.FlowValidator;
import dev.continuum.flow.validation.ValidationReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * The floor of the engine's own logic (issue 17 A): the pure flow-language interpreter runs the bench's five-step
 * flow end to end in memory, one thread, every action answering SUCCEEDED at once (as the in-process built-ins do).
 * No database, no HTTP, no Vert.x, no Mutiny: what is left is the interpreter (three calls per run: start, echo's
 * answer, sleep's answer) and, with {@code --state-json}, the state document the engine writes at each commit.
 * Prints CPU time and bytes allocated per run and per transition (a state entered); asserts nothing.
 */
@Command(name = "interpreter-floor", mixinStandardHelpOptions = true,
        description = "Run the five-step flow N times through the pure interpreter in memory and print CPU and allocation per run.")
public final class InterpreterFloor implements Callable<Integer> {

    @Option(names = "--runs", defaultValue = "100000", description = "Measured runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", defaultValue = "100000", description = "Unmeasured runs first, for the JIT (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--state-json", description = "Also serialise the run state to JSON text after each interpreter call "
            + "(RunState.toJsonText, what the engine stores per commit) and parse it back (what a turn that reads the run does).")
    boolean stateJson;

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Override
    public Integer call() {
        ValidationReport report = new FlowValidator().validate(FiveStepFlow.definition("http://127.0.0.1:8080", BigDecimal.ZERO));
        if (!report.issues().isEmpty()) {
            throw new IllegalStateException("the bench flow does not validate: " + report.issues());
        }
        Interpreter interpreter = new Interpreter(report.flow().orElseThrow(), InterpreterOptions.defaults());
        long sink = 0;
        for (int i = 0; i < warmup; i++) {
            sink += runOnce(interpreter, i);
        }
        long thread = Thread.currentThread().threadId();
        long cpuBefore = threads.getCurrentThreadCpuTime();
        long bytesBefore = threads.getThreadAllocatedBytes(thread);
        long wallBefore = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            sink += runOnce(interpreter, warmup + i);
        }
        long wall = System.nanoTime() - wallBefore;
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        long bytes = threads.getThreadAllocatedBytes(thread) - bytesBefore;
        int transitions = FiveStepFlow.STATES;
        System.out.printf("interpreter floor  %d runs after %d warm-up, state JSON per call: %s%n", runs, warmup, stateJson ? "yes" : "no");
        System.out.printf("cpu per run        %.1f us   (%.1f us per transition, %d transitions per run, 3 interpreter calls)%n",
                cpu / 1e3 / runs, cpu / 1e3 / runs / transitions, transitions);
        System.out.printf("alloc per run      %.1f KiB  (%.1f KiB per transition)%n",
                bytes / 1024.0 / runs, bytes / 1024.0 / runs / transitions);
        System.out.printf("wall               %.2f s, %.0f runs/s on one thread (log entries per run: %d)%n",
                wall / 1e9, runs / (wall / 1e9), sink / (warmup + (long) runs));
        return 0;
    }

    /** One run: start, echo answers SUCCEEDED, sleep answers SUCCEEDED; returns the run's log entries. */
    private int runOnce(Interpreter interpreter, int n) {
        String runId = "run-" + n;
        RunContext context = new RunContext(runId, "flow-1", 1, "user-1", "bench", List.of());
        Step step = interpreter.start(FiveStepFlow.input(n), context, T0);
        int log = step.log().size();
        RunState state = committed(step.state());
        for (int action = 0; action < FiveStepFlow.ACTIONS; action++) {
            Effect.StartAction start = startOf(step);
            JsonNode details = start.body();
            ActionObservation done = new ActionObservation("a-" + n + "-" + action, "SUCCEEDED", details, "Succeeded");
            step = interpreter.apply(state, new RunEvent.ActionStarted(start.token(), done), T0);
            log += step.log().size();
            state = committed(step.state());
        }
        if (state.status() != RunStatus.SUCCEEDED) {
            throw new IllegalStateException("run " + runId + " ended " + state.status() + ": " + state.error().orElse(""));
        }
        return log;
    }

    private RunState committed(RunState state) {
        return stateJson ? RunState.fromJsonText(state.toJsonText()) : state;
    }

    private static Effect.StartAction startOf(Step step) {
        for (Effect effect : step.effects()) {
            if (effect instanceof Effect.StartAction start) {
                return start;
            }
        }
        throw new IllegalStateException("expected a StartAction, got " + step.effects());
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new InterpreterFloor()).execute(args));
    }
}
