package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.bench.measure.FiveStepFlow;
import dev.continuum.bench.measure.Percentiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 18's load item: many concurrently active runs, and how fast {@code GET /runs/{id}} answers meanwhile.
 * Starts {@code --runs} runs of Pass → (sleep Action or Wait of {@code --hold-s}) → Pass, so they all stay ACTIVE,
 * then times {@code --samples} reads of random ones by {@code --readers} closed-loop readers and prints p50/p95/p99,
 * with the engine's heap before the starts, once they are in, and after a full GC (live data). Prints numbers;
 * asserts nothing about them.
 */
@Command(name = "active-runs", mixinStandardHelpOptions = true,
        description = "Start N runs that stay ACTIVE, then time GET /runs/{id} of random ones and print p50/p95/p99 and the engine's heap.")
public final class ActiveRunsLoad implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--api", defaultValue = "http://127.0.0.1:8080", description = "Engine base URL (default ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--runs", defaultValue = "10000", description = "Runs to start and keep ACTIVE (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--hold", defaultValue = "action", description = "What keeps a run ACTIVE: action (the built-in sleep "
            + "provider, so the engine polls it) or wait (a Wait state, a timer only) (default ${DEFAULT-VALUE}).")
    String hold;

    @Option(names = "--hold-s", defaultValue = "1800", description = "How long each run stays ACTIVE, seconds (default ${DEFAULT-VALUE}).")
    int holdSeconds;

    @Option(names = "--start-concurrency", defaultValue = "32", description = "Start calls in flight at once (default ${DEFAULT-VALUE}).")
    int startConcurrency;

    @Option(names = "--samples", defaultValue = "5000", description = "GET /runs/{id} calls timed (default ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--readers", defaultValue = "4", description = "Readers calling GET /runs/{id} back to back (default ${DEFAULT-VALUE}).")
    int readers;

    @Option(names = "--engine-pid", description = "Engine process id (same machine): also print its RSS and its live heap after a full GC (jcmd).")
    Long enginePid;

    @Option(names = "--pg-db", hidden = true, description = "Accepted so bench/scripts/engine-bench.sh can start this; unused.")
    String pgDatabase;

    @Override
    public Integer call() throws Exception {
        LoadDriverClient engine = new LoadDriverClient(api);
        String flowId = engine.publishFlow("bench: run held ACTIVE", definition());
        heap(engine, "before the starts");

        List<String> ids = Collections.synchronizedList(new ArrayList<>(runs));
        List<Double> startMillis = Collections.synchronizedList(new ArrayList<>(runs));
        AtomicInteger notActive = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        long began = System.nanoTime();
        try (ExecutorService starters = Executors.newFixedThreadPool(startConcurrency, Thread.ofVirtual().factory())) {
            for (int i = 0; i < runs; i++) {
                int number = i;
                starters.submit(() -> {
                    long t = System.nanoTime();
                    try {
                        LoadDriverClient.Started run = engine.startRun(flowId, FiveStepFlow.input(number), "bench-active");
                        startMillis.add((System.nanoTime() - t) / 1e6);
                        ids.add(run.runId());
                        if (!run.active()) {
                            notActive.incrementAndGet();
                        }
                    } catch (RuntimeException e) {
                        if (failed.getAndIncrement() == 0) {
                            System.err.println("a start failed: " + e.getMessage());
                        }
                    }
                });
            }
        }
        double startSeconds = (System.nanoTime() - began) / 1e9;
        Percentiles starts = Percentiles.of(startMillis);
        System.out.printf(Locale.ROOT, "started         %,d runs (%s, %d s) in %.1f s: %.0f starts/s, start call p50 %.1f ms p99 %.1f ms%s%n",
                ids.size(), hold, holdSeconds, startSeconds, ids.size() / startSeconds, starts.p50(), starts.p99(),
                (notActive.get() == 0 ? "" : "; " + notActive.get() + " NOT ACTIVE when started")
                        + (failed.get() == 0 ? "" : "; " + failed.get() + " starts FAILED"));
        heap(engine, "with the runs active");

        List<Double> readMillis = Collections.synchronizedList(new ArrayList<>(samples));
        AtomicInteger left = new AtomicInteger(samples);
        AtomicLong active = new AtomicLong();
        long readsBegan = System.nanoTime();
        try (ExecutorService pool = Executors.newFixedThreadPool(readers, Thread.ofVirtual().factory())) {
            for (int r = 0; r < readers; r++) {
                pool.submit(() -> {
                    while (left.getAndDecrement() > 0) {
                        String id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
                        long t = System.nanoTime();
                        JsonNode run = engine.run(id);
                        readMillis.add((System.nanoTime() - t) / 1e6);
                        if ("ACTIVE".equals(run.path("status").asText())) {
                            active.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
        }
        double readSeconds = (System.nanoTime() - readsBegan) / 1e9;
        Percentiles reads = Percentiles.of(readMillis);
        System.out.printf(Locale.ROOT, "GET /runs/{id}  %,d reads by %d readers in %.1f s (%.0f/s), %,d of them ACTIVE%n",
                reads.count(), readers, readSeconds, reads.count() / readSeconds, active.get());
        System.out.printf(Locale.ROOT, "  latency       p50 %.2f ms   p95 %.2f ms   p99 %.2f ms   max %.1f ms%n",
                reads.p50(), reads.p95(), reads.p99(), reads.max());
        heap(engine, "after the reads");
        liveHeap(engine);
        return active.get() == reads.count() ? 0 : 1;
    }

    /** Pass → hold → Pass: the hold is the built-in sleep provider's action or a Wait state. */
    JsonNode definition() {
        ObjectNode flow = JSON.createObjectNode().put("StartAt", "Prepare");
        ObjectNode states = flow.putObject("States");
        states.putObject("Prepare").put("Type", "Pass").put("ResultPath", "$.prepared").put("Next", "Hold");
        ObjectNode holdState = states.putObject("Hold");
        switch (hold) {
            case "action" -> {
                // WaitTime past the sleep: the default (300 s) would time the actions out mid-benchmark.
                holdState.put("Type", "Action").put("ActionUrl", FiveStepFlow.trimSlash(api) + "/providers/sleep")
                        .put("WaitTime", holdSeconds + 600).put("ResultPath", "$.held").put("Next", "Done");
                holdState.putObject("Parameters").put("seconds", holdSeconds);
            }
            case "wait" -> holdState.put("Type", "Wait").put("Seconds", holdSeconds).put("Next", "Done");
            default -> throw new CommandLine.ParameterException(new CommandLine(this), "--hold is action or wait, not " + hold);
        }
        states.putObject("Done").put("Type", "Pass").put("End", true);
        return flow;
    }

    /** Heap in use as the engine's metrics page says (young garbage included), and its RSS. */
    private void heap(LoadDriverClient engine, String when) {
        double used = 0;
        for (String line : engine.text("/q/metrics").split("\n")) {
            if (line.startsWith("jvm_memory_used_bytes{") && line.contains("area=\"heap\"")) {
                used += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        System.out.printf(Locale.ROOT, "engine heap     %,.0f MB in use %s%s%n", used / 1e6, when,
                rss().map(kb -> String.format(Locale.ROOT, " (RSS %,d MB)", kb / 1024)).orElse(""));
    }

    /** After a full GC the heap in use is the live data: what the active runs (and the rest) hold. */
    private void liveHeap(LoadDriverClient engine) throws IOException, InterruptedException {
        if (enginePid == null) {
            return;
        }
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process gc = new ProcessBuilder(jcmd.toString(), Long.toString(enginePid), "GC.run").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (gc.waitFor() == 0) {
            heap(engine, "after a full GC (live data)");
        }
    }

    private Optional<Long> rss() {
        if (enginePid == null) {
            return Optional.empty();
        }
        try {
            return Files.readAllLines(Path.of("/proc", Long.toString(enginePid), "status")).stream()
                    .filter(line -> line.startsWith("VmRSS:"))
                    .map(line -> Long.parseLong(line.replaceAll("[^0-9]", ""))).findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new ActiveRunsLoad())
                .setExecutionExceptionHandler((failure, line, parsed) -> {
                    line.getErr().println("active-runs: " + failure.getMessage());
                    return 2;
                })
                .execute(args));
    }
}
