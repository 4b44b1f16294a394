package dev.continuum.placement.simulator.cli;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.Policy;
import dev.continuum.placement.core.policy.PolicyOptions;
import dev.continuum.placement.core.policy.Shortage;
import dev.continuum.placement.core.policy.StandardPolicy;
import dev.continuum.placement.core.scaling.ScalingConfig;
import dev.continuum.placement.simulator.ScalingSimulator;
import dev.continuum.placement.simulator.trace.ArrivalTrace;
import dev.continuum.placement.simulator.report.HtmlReport;
import dev.continuum.placement.simulator.report.MetricsWriter;
import dev.continuum.placement.simulator.ContinuumSimulator;
import dev.continuum.placement.simulator.FillExperiment;
import dev.continuum.placement.simulator.SimulationConfig;
import dev.continuum.placement.simulator.SimulationResult;
import dev.continuum.placement.simulator.Simulator;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.simulator.trace.ClusterReader;
import dev.continuum.placement.simulator.trace.KeptTrace;
import dev.continuum.placement.simulator.trace.OpenbPodReader;
import dev.continuum.placement.simulator.trace.SyntheticTrace;
import dev.continuum.placement.simulator.trace.TraceFormat;
import dev.continuum.placement.simulator.trace.TraceFormatException;
import dev.continuum.placement.simulator.trace.TraceReader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * {@code simulate}: replay a trace against a cluster under several policies side by side, print a
 * comparison table, and write an HTML report plus CSV/JSON of every metric.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Replay a GPU cluster trace under several scheduling policies and compare them.")
public final class SimulateCommand implements Callable<Integer> {
    static final int EXIT_BAD_INPUT = 2;

    @Option(names = "--trace", description = "Trace file (openb pod list, Helios cluster_log.csv, Philly cluster_job_log, or continuum CSV).")
    Path trace;

    @Option(names = "--format", defaultValue = "auto", description = "auto, continuum, openb, helios, philly or (with --arrivals) azure (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--synthetic", description = "Instead of --trace, generate this many Helios-like jobs.")
    Long synthetic;

    @Option(names = "--load", defaultValue = "0.9", description = "Offered GPU load of --synthetic jobs (default: ${DEFAULT-VALUE}).")
    double load;

    @Option(names = "--cluster", description = "Node list CSV (openb or continuum) or synthetic:nodes=N,gpus=G,rack=R,model=M.")
    String cluster;

    @Option(names = "--topology", description = "Instead of a cluster trace: an edge + datacenter topology (JSON: sites, links, endpoints); "
            + "compares inference placement (planner, edge-only, datacenter-only, round-robin, least-loaded) on --workload or --jobs.")
    Path topology;

    @Option(names = "--planner-trace", description = "Instead of a cluster trace: a trace the planner service recorded "
            + "(continuum.placement.trace); replays it and checks every decision, and with --policy also replays its "
            + "inputs under each of those policies (what-if). Exit 1 if the recorded configuration's replay differs.")
    Path plannerTrace;

    @Option(names = "--workload", description = "With --topology: inference jobs, CSV id,at_ms,model,endpoint,bytes,slo_ms.")
    Path workload;

    @Option(names = "--jobs", description = "With --topology: generate this many inference jobs instead of --workload.")
    Integer jobs;

    @Option(names = "--rate", defaultValue = "30", description = "With --jobs: arrivals per second, Poisson (default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--model", description = "With --jobs: the model every job runs (default: the first site's first model).")
    String model;

    @Option(names = "--bytes", defaultValue = "100000-300000", description = "With --jobs: input size range MIN-MAX in bytes (default: ${DEFAULT-VALUE}).")
    String bytes;

    @Option(names = "--slo-ms", defaultValue = "1000", description = "With --jobs: each job's latency SLO in ms (default: ${DEFAULT-VALUE}).")
    long sloMillis;

    @Option(names = "--policy", split = ",", defaultValue = "fifo,sjf,srtf,las,qssf",
            description = "Policies to compare, e.g. fifo,sjf,srtf,las+migrate,fifo+fgd (default: ${DEFAULT-VALUE}).")
    List<String> policies;

    @Option(names = "--partition", description = "Partition quota NAME=GPUS (repeatable); jobs name their partition (Helios vc).")
    List<String> partitions = new ArrayList<>();

    @Option(names = "--out", defaultValue = "simulation-report", description = "Report directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--skip-bad-lines", description = "Skip and count malformed trace lines instead of stopping at the first.")
    boolean skipBadLines;

    @Option(names = "--seed", defaultValue = "42") long seed;
    @Option(names = "--checkpoint-cost", defaultValue = "30", description = "Seconds of progress a preempted job loses.") double checkpointCost;
    @Option(names = "--restore-delay", defaultValue = "60", description = "Seconds a restarted job spends restoring.") double restoreDelay;
    @Option(names = "--migration-delay", defaultValue = "90", description = "Seconds a migrated job pauses.") double migrationDelay;
    @Option(names = "--cross-node-slowdown", defaultValue = "1.0") double crossNodeSlowdown;
    @Option(names = "--cross-rack-slowdown", defaultValue = "1.3") double crossRackSlowdown;
    @Option(names = "--rack-size", defaultValue = "16", description = "Nodes per rack when the node list names none.") int rackSize;
    @Option(names = "--slo-factor", defaultValue = "2.0", description = "A job meets its SLO if JCT <= factor x duration (when it has no deadline).") double sloFactor;
    @Option(names = "--lookahead", defaultValue = "128", description = "Backfill depth: waiting jobs a round may pass over; jobs it starts do not count (default: ${DEFAULT-VALUE}).") int lookahead;
    @Option(names = "--preemption-interval", defaultValue = "60",
            description = "Simulated seconds between rounds that may preempt, reclaim or migrate (0 = every round).")
    double preemptionInterval;
    @Option(names = "--threads", description = "Policies simulated at once (default: available cores).") Integer threads;

    @Option(names = "--fill", description = "Run FGD's fill experiment (no departures) with each policy's placement instead of a replay.")
    boolean fill;
    @Option(names = "--fill-repetitions", defaultValue = "5") int fillRepetitions;
    @Option(names = "--fill-up-to", defaultValue = "120", description = "Stop at this arrived demand, %% of GPUs (default: ${DEFAULT-VALUE}).") double fillUpTo;

    @Option(names = "--quiet", description = "No progress lines.") boolean quiet;

    @Option(names = "--write-trace", description = "With --synthetic: write the generated jobs to this file (continuum CSV) and stop, "
            + "so that another simulator can replay the same jobs.")
    Path writeTrace;

    /** Several policies share one read of a trace up to this size; a bigger one streams again per policy (flat memory). */
    static final long KEEP_JOBS = 250_000;
    static final long KEEP_FILE_BYTES = 32L << 20;

    @Option(names = "--carbon", description = "Carbon intensity or energy price CSV (site,time,value) for +green policies; the cluster's site is its name, or use site *.")
    java.nio.file.Path carbon;

    @Option(names = "--arrivals", description = "Instead of a cluster trace: inference arrivals for one worker pool (an Azure LLM "
            + "inference CSV, or a job trace whose submission times become requests); compares scaling policies (--scaling).")
    Path arrivals;
    @Option(names = "--scaling", split = ",", defaultValue = "predictive,reactive-hpa,fixed",
            description = "With --arrivals: predictive, reactive-hpa, fixed (sized for the busiest minute) or fixed:N (default: ${DEFAULT-VALUE}).")
    List<String> scaling;
    @Option(names = "--time-scale", defaultValue = "1", description = "With --arrivals: divide arrival times by this (24: a day into an hour).")
    double timeScale;
    @Option(names = "--rate-scale", defaultValue = "1", description = "With --arrivals: below 1 keep this share of arrivals, above 1 overlay copies shifted by whole days.")
    double rateScale;
    @Option(names = "--service-ms", defaultValue = "1000", description = "With --arrivals from a job trace: mean service time per request, exponential (default: ${DEFAULT-VALUE}).")
    double serviceMillis;
    @Option(names = "--wait-slo-ms", defaultValue = "2000", description = "With --arrivals: a request meets the SLO if it waits at most this long (default: ${DEFAULT-VALUE}).")
    long waitSloMillis;
    @Option(names = "--slo-target", defaultValue = "0.95", description = "With --arrivals: share of requests the predictive policy sizes to meet the SLO (default: ${DEFAULT-VALUE}).")
    double sloTarget;
    @Option(names = "--cold-start-s", defaultValue = "60", description = "With --arrivals: seconds before a new worker serves (default: ${DEFAULT-VALUE}).")
    double coldStartSeconds;
    @Option(names = "--hpa-target", defaultValue = "0.7", description = "With --arrivals: reactive-hpa's target utilisation (default: ${DEFAULT-VALUE}).")
    double hpaTarget;
    @Option(names = "--warm-min", defaultValue = "1", description = "With --arrivals: workers kept warm at least (default: ${DEFAULT-VALUE}).")
    int warmMinimum;
    @Option(names = "--scale-down-hold-s", defaultValue = "120", description = "With --arrivals: seconds the predictive policy waits before acting on a lower count (default: ${DEFAULT-VALUE}).")
    double scaleDownHoldSeconds;
    @Option(names = "--forecast-bucket-s", defaultValue = "60", description = "With --arrivals: the forecaster's bucket (default: ${DEFAULT-VALUE}).")
    long forecastBucketSeconds;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(new CommandLine(new SimulateCommand()).execute(args));
    }

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (topology != null) {
            return compareInference(o, err);
        }
        if (plannerTrace != null) {
            return replayPlannerTrace(o, err);
        }
        if (arrivals != null) {
            return compareScaling(o, err);
        }
        if (cluster == null) {
            err.println("error: give --cluster (a cluster trace replay), --topology (inference on an edge + datacenter topology) "
                    + "or --planner-trace (a trace the planner service recorded)");
            return CommandLine.ExitCode.USAGE;
        }
        if ((trace == null) == (synthetic == null)) {
            err.println("error: give exactly one of --trace FILE or --synthetic JOBS");
            return CommandLine.ExitCode.USAGE;
        }
        try {
            Cluster c = buildCluster();
            PolicyOptions base = PolicyOptions.defaults(false).withLookahead(lookahead).withSeed(seed)
                    .withRoomMakingInterval(preemptionInterval);
            for (String p : policies) {
                Policies.parse(p, base); // fail fast on a typo, before any work
            }
            if (writeTrace != null) {
                return writeSyntheticTrace(c, o, err);
            }
            Files.createDirectories(out);
            String source = trace != null ? trace.toString() : "synthetic " + synthetic + " jobs, load " + load;
            String subtitle = String.format(Locale.ROOT, "trace: %s; cluster: %s (%d nodes, %d GPUs, %d partitions); seed %d",
                    source, c.site().name(), c.nodes().size(), c.totalGpus(), c.partitions().size(), seed);
            o.println(subtitle);
            o.flush();
            if (fill) {
                List<FillExperiment.Result> results = runFill(c, base, o);
                MetricsWriter.writeFill(results, out);
                HtmlReport.write(out.resolve("report.html"), HtmlReport.render("Fill experiment", subtitle, List.of(), results));
                o.println("report: " + out.resolve("report.html") + " (+ metrics.json, metrics.csv, series.csv)");
                return CommandLine.ExitCode.OK;
            }
            List<SimulationResult> results = runReplay(c, base, err);
            o.println();
            o.print(MetricsWriter.table(results));
            if (!results.isEmpty()) {
                printLeftOut(o, results.getFirst().skippedLines(), results.getFirst().filteredRecords());
            }
            MetricsWriter.writeJson(results, out.resolve("metrics.json"));
            MetricsWriter.writeCsv(results, out.resolve("metrics.csv"));
            MetricsWriter.writeSeriesCsv(results, out.resolve("series.csv"));
            HtmlReport.write(out.resolve("report.html"), HtmlReport.render("Simulation report", subtitle, results, List.of()));
            o.println("report: " + out.resolve("report.html") + " (+ metrics.json, metrics.csv, series.csv)");
            return CommandLine.ExitCode.OK;
        } catch (TraceFormatException e) {
            err.println("error: " + e.getMessage());
            if (!skipBadLines) {
                err.println("(use --skip-bad-lines to skip malformed lines and count them)");
            }
            return EXIT_BAD_INPUT;
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }

    private int compareScaling(PrintWriter o, PrintWriter err) {
        try {
            if (forecastBucketSeconds < 1 || serviceMillis <= 0 || coldStartSeconds < 0) {
                throw new IllegalArgumentException("--forecast-bucket-s >= 1, --service-ms > 0 and --cold-start-s >= 0, were "
                        + forecastBucketSeconds + ", " + serviceMillis + ", " + coldStartSeconds);
            }
            ScalingConfig config = ScalingConfig.defaults().withSlo(waitSloMillis, sloTarget)
                    .withColdStart(Math.round(coldStartSeconds * 1000)).withWarmMinimum(warmMinimum).withHpaTarget(hpaTarget)
                    .withScaleDownHold(Math.round(scaleDownHoldSeconds * 1000));
            String f = format.trim().toLowerCase(Locale.ROOT);
            boolean azure = f.equals("azure") || f.equals("auto") && firstLine(arrivals).contains("GeneratedTokens");
            List<ScalingSimulator.Request> read = azure
                    ? ArrivalTrace.azure(arrivals, ArrivalTrace.TokenCost.defaults())
                    : ArrivalTrace.submissions((f.equals("auto") ? TraceFormat.detect(arrivals) : TraceFormat.parse(f))
                            .open(arrivals, skipBadLines), serviceMillis, seed);
            List<ScalingSimulator.Request> requests = ArrivalTrace.scale(read, timeScale, rateScale, 86_400_000L);
            long span = requests.isEmpty() ? 0 : requests.getLast().atMillis();
            String subtitle = String.format(Locale.ROOT, "arrivals: %s (%s), time scale %s, rate scale %s: %d requests over %.0f s, %.3f/s, "
                            + "mean service %.2f s; wait SLO %d ms for %.0f %%, cold start %.0f s", arrivals,
                    azure ? "azure" : "job submissions", timeScale, rateScale, requests.size(), span / 1000.0,
                    requests.size() / Math.max(1, span / 1000.0),
                    requests.stream().mapToLong(ScalingSimulator.Request::serviceMillis).average().orElse(0) / 1000,
                    waitSloMillis, 100 * sloTarget, coldStartSeconds);
            o.println(subtitle);
            List<ScalingSimulator.Result> results = ScalingEvaluation.run(requests, scaling, config,
                    ScalingEvaluation.forecastConfig(forecastBucketSeconds * 1000, config, timeScale));
            ScalingEvaluation.print(results, o);
            ScalingEvaluation.write(subtitle, results, out);
            o.println("timeline: " + out.resolve("scaling.html") + " (+ scaling-timeline.csv, scaling-decisions.csv)");
            return CommandLine.ExitCode.OK;
        } catch (TraceFormatException | IllegalArgumentException | UncheckedIOException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }

    private static String firstLine(Path p) throws IOException {
        try (var in = Files.newBufferedReader(p)) {
            String line = in.readLine();
            return line == null ? "" : line;
        }
    }

    private int compareInference(PrintWriter o, PrintWriter err) {
        if ((workload == null) == (jobs == null)) {
            err.println("error: with --topology give exactly one of --workload FILE or --jobs N");
            return CommandLine.ExitCode.USAGE;
        }
        try {
            ContinuumSimulator.Topology t = ContinuumTopologyFile.read(topology);
            List<ContinuumSimulator.Arrival> arrivals;
            if (workload != null) {
                arrivals = InferenceWorkload.read(workload, t);
            } else {
                String[] range = bytes.split("-", 2);
                long min;
                long max;
                try {
                    min = Long.parseLong(range[0].trim());
                    max = range.length > 1 ? Long.parseLong(range[1].trim()) : min;
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("--bytes: must be MIN-MAX in bytes, was '" + bytes + "'");
                }
                if (min < 0 || max < min || jobs < 1 || rate <= 0 || sloMillis < 0) {
                    throw new IllegalArgumentException("--jobs ≥ 1, --rate > 0, --slo-ms ≥ 0 and --bytes 0 ≤ MIN ≤ MAX, were "
                            + jobs + ", " + rate + ", " + sloMillis + ", " + bytes);
                }
                String m = model != null ? model : t.sites().getFirst().computeMillis().keySet().iterator().next();
                if (!InferenceWorkload.models(t).contains(m)) {
                    throw new IllegalArgumentException("--model: no site runs '" + m + "'; the topology's models are "
                            + InferenceWorkload.models(t));
                }
                arrivals = InferenceWorkload.synthetic(t, jobs, rate, m, min, max, sloMillis, seed);
            }
            o.printf(Locale.ROOT, "topology: %s (%d sites, %d links); workload: %s, %s%n", topology, t.sites().size(),
                    t.links().size(), workload != null ? workload : "generated, seed " + seed,
                    InferenceWorkload.describe(arrivals));
            ContinuumComparison.print(ContinuumComparison.run(t, arrivals), o);
            return CommandLine.ExitCode.OK;
        } catch (TraceFormatException | IllegalArgumentException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }

    private int replayPlannerTrace(PrintWriter o, PrintWriter err) {
        // --policy has a default for cluster replays; here only policies asked for explicitly are what-ifs
        List<String> whatIf = spec.commandLine().getParseResult().hasMatchedOption("--policy") ? policies : List.of();
        try {
            for (String p : whatIf) {
                Policies.parse(p); // fail fast on a typo, before any work
            }
            List<PlannerTraceReplay.Outcome> outcomes = PlannerTraceReplay.run(plannerTrace, whatIf);
            PlannerTraceReplay.print(plannerTrace, outcomes, o);
            return outcomes.getFirst().result().identical() ? CommandLine.ExitCode.OK : 1;
        } catch (IllegalArgumentException | UncheckedIOException e) {
            err.println("error: " + plannerTrace + ": " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("error: cannot read " + plannerTrace + ": " + e.getMessage());
            return EXIT_BAD_INPUT;
        }
    }

    private int writeSyntheticTrace(Cluster c, PrintWriter o, PrintWriter err) {
        if (synthetic == null) {
            err.println("error: --write-trace needs --synthetic JOBS (a trace file is already a file)");
            return CommandLine.ExitCode.USAGE;
        }
        ((SyntheticTrace) traceSource(c).get()).writeContinuum(writeTrace);
        o.println("wrote " + synthetic + " jobs to " + writeTrace);
        return CommandLine.ExitCode.OK;
    }

    private static void printLeftOut(PrintWriter o, long skipped, long filtered) {
        if (skipped > 0) {
            o.println("skipped " + skipped + " malformed trace lines");
        }
        if (filtered > 0) {
            o.println("left out " + filtered + " trace records that never ran (e.g. openb pods still Pending)");
        }
    }

    private Cluster buildCluster() {
        Cluster c = ClusterReader.read(cluster, rackSize).withTopology(new Topology(crossNodeSlowdown, crossRackSlowdown));
        if (!partitions.isEmpty()) {
            List<Partition> list = new ArrayList<>();
            for (String p : partitions) {
                String[] kv = p.split("=", 2);
                if (kv.length != 2) {
                    throw new IllegalArgumentException("--partition expects NAME=GPUS, got '" + p + "'");
                }
                list.add(new Partition(kv[0].trim(), Integer.parseInt(kv[1].trim())));
            }
            c = c.withPartitions(list);
        }
        return c;
    }

    private Supplier<TraceReader> traceSource(Cluster c) {
        if (synthetic != null) {
            String[] names = c.partitions().stream().map(Partition::name).toArray(String[]::new);
            return () -> new SyntheticTrace(synthetic, seed, load, c.totalGpus(), Math.max(1, c.totalGpus() / 8),
                    Math.max(1, (int) Math.min(1000, synthetic / 50)), names);
        }
        TraceFormat f = format.equalsIgnoreCase("auto") ? TraceFormat.detect(trace) : TraceFormat.parse(format);
        return () -> f.open(trace, skipBadLines);
    }

    /**
     * The fill experiment samples task shapes, not runs, so it keeps openb pods the trace never
     * scheduled, as the FGD authors' simulator does; a replay leaves them out.
     */
    private TraceReader fillSource(Cluster c) {
        if (trace != null && (format.equalsIgnoreCase("auto") ? TraceFormat.detect(trace) : TraceFormat.parse(format))
                == TraceFormat.OPENB) {
            return new OpenbPodReader(trace, skipBadLines, true);
        }
        return traceSource(c).get();
    }

    /** "memory 812 (3 GPUs), cpu 40 (21 GPUs)": tasks dropped per resource that ran out, most first, and the GPUs they asked for. */
    private static String shortages(FillExperiment.Result f) {
        List<String> parts = new ArrayList<>();
        java.util.Arrays.stream(Shortage.values())
                .filter(k -> Math.round(f.droppedFor(k)) > 0)
                .sorted(java.util.Comparator.comparingDouble(f::droppedFor).reversed())
                .forEach(k -> parts.add(String.format(Locale.ROOT, "%s %.0f (%.0f GPUs)", k.key(), f.droppedFor(k),
                        f.droppedGpus().get(k))));
        return parts.isEmpty() ? "-" : String.join(", ", parts);
    }

    private List<SimulationResult> runReplay(Cluster c, PolicyOptions base, PrintWriter err) throws IOException {
        Supplier<TraceReader> source = traceSource(c);
        if (policies.size() > 1 && (synthetic != null ? synthetic <= KEEP_JOBS : Files.size(trace) <= KEEP_FILE_BYTES)) {
            KeptTrace kept = KeptTrace.readAll(source.get()); // read (or generate) once, replay per policy
            source = kept::reader;
        }
        try (TraceReader probe = source.get()) {
            probe.hasNext(); // a header error surfaces here, before threads start
        }
        SimulationConfig config = new SimulationConfig(c, new PreemptionCosts(checkpointCost, restoreDelay, migrationDelay),
                sloFactor, 500);
        int n = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(n, policies.size())));
        AtomicLong lastPrint = new AtomicLong();
        Simulator.Progress progress = (policy, jobs, simSeconds) -> {
            long now = System.currentTimeMillis();
            long last = lastPrint.get();
            if (!quiet && now - last >= 2000 && lastPrint.compareAndSet(last, now)) {
                synchronized (err) {
                    err.printf(Locale.ROOT, "  %-16s %,d jobs read, simulated %s%n", policy, jobs,
                            MetricsWriter.duration(simSeconds));
                    err.flush();
                }
            }
        };
        dev.continuum.placement.core.policy.CarbonSignal signal = carbon == null ? dev.continuum.placement.core.policy.CarbonSignal.NONE
                : dev.continuum.placement.core.planner.CarbonCsvReader.read(carbon);
        Supplier<TraceReader> replaySource = source;
        Map<String, Future<SimulationResult>> futures = new LinkedHashMap<>();
        for (String name : policies) {
            futures.put(name, pool.submit(() -> {
                Policy policy = Policies.parse(name, base, signal, c.site().name());
                try (TraceReader r = replaySource.get()) {
                    return new Simulator(config).run(policy, r, progress);
                }
            }));
        }
        pool.shutdown();
        List<SimulationResult> results = new ArrayList<>();
        try {
            for (Future<SimulationResult> f : futures.values()) {
                results.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            pool.shutdownNow();
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        }
        return results;
    }

    private List<FillExperiment.Result> runFill(Cluster c, PolicyOptions base, PrintWriter o) {
        List<Job> pods = new ArrayList<>();
        try (TraceReader r = fillSource(c)) {
            r.forEachRemaining(pods::add);
            printLeftOut(o, r.skippedLines(), r.filteredRecords());
        }
        List<FillExperiment.Result> results = new ArrayList<>();
        int width = Math.max("placement".length(), policies.stream().mapToInt(String::length).max().orElse(0));
        String row = "%-" + width + "s %14s %14s %14s %14s %8s  %s%n";
        o.printf(Locale.ROOT, row, "placement", "unalloc@90%", "unalloc@100%", "unalloc@110%", "dropped tasks", "wall",
                "dropped tasks because out of (GPUs they asked for)");
        for (String name : policies) {
            Supplier<dev.continuum.placement.core.policy.PlacementStrategy> strategy =
                    () -> ((StandardPolicy) Policies.parse(name, base)).placement();
            FillExperiment.Result f = FillExperiment.run(c, pods, strategy, fillRepetitions, seed, 1, fillUpTo);
            results.add(f);
            o.printf(Locale.ROOT, "%-" + width + "s %14.1f %14.1f %14.1f %14.0f %6d ms  %s%n", name, f.unallocatedAt(90),
                    f.unallocatedAt(100), f.unallocatedAt(110), f.failedTasks(), f.wallMillis(), shortages(f));
            o.flush();
        }
        return results;
    }
}
