package dev.continuum.bench.sim;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.StandardPolicy;
import dev.continuum.placement.simulator.report.MetricsWriter;
import dev.continuum.placement.simulator.FillExperiment;
import dev.continuum.placement.simulator.SimulationConfig;
import dev.continuum.placement.simulator.SimulationResult;
import dev.continuum.placement.simulator.Simulator;
import dev.continuum.placement.simulator.trace.ClusterReader;
import dev.continuum.placement.simulator.trace.HeliosTraceReader;
import dev.continuum.placement.simulator.trace.OpenbPodReader;
import dev.continuum.placement.simulator.trace.SyntheticTrace;
import dev.continuum.placement.simulator.trace.TraceReader;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Simulator benchmarks and fidelity checks; prints numbers, asserts nothing.
 * <pre>
 * java -Xmx256m -cp bench/target/continuum-bench-0.1.0-SNAPSHOT-runner.jar dev.continuum.bench.sim.SimulatorBench \
 *      [openb] [scale] [fill] [helios] [--jobs N] [--scale-policies fifo,sjf] [--traces DIR]
 * </pre>
 * openb: the 8,152-pod Alibaba 2023 trace on its 1,523 nodes, per policy (median of 3 after a
 * warm-up, streaming the file each time). scale: a synthetic N-job trace (default 1M) on 10,000
 * GPUs, with peak heap after GC for N/10 and N jobs. fill: FGD's experiment on openb. helios:
 * a Helios-format synthetic trace (written as cluster_log.csv, read back) under the order policies.
 */
public final class SimulatorBench {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final List<String> OPENB_POLICIES = List.of("fifo", "sjf", "srtf", "las", "qssf", "fifo+fgd",
            "fifo+worstfit", "fifo+dotprod", "las+migrate", "fifo+synergy");
    private static final List<String> FILL_PLACEMENTS = List.of("fgd", "bestfit", "bestfit-weighted", "dotprod", "worstfit", "firstfit");
    private static final List<String> HELIOS_POLICIES = List.of("fifo", "sjf", "srtf", "las", "qssf");

    public static void main(String[] args) throws IOException {
        List<String> sections = new ArrayList<>();
        long jobs = 1_000_000;
        List<String> scalePolicies = List.of("fifo", "sjf");
        Path traces = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--jobs" -> jobs = Long.parseLong(args[++i]);
                case "--scale-policies" -> scalePolicies = Arrays.asList(args[++i].split(","));
                case "--traces" -> traces = Path.of(args[++i]);
                default -> sections.add(args[i]);
            }
        }
        if (sections.isEmpty()) {
            sections = List.of("openb", "fill", "helios", "scale");
        }
        if (traces == null) {
            traces = findTraces();
        }
        System.out.printf(Locale.ROOT, "java %s, %d cores, max heap %d MB%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        for (String s : sections) {
            switch (s) {
                case "openb" -> openb(traces);
                case "fill" -> fill(traces);
                case "helios" -> helios();
                case "scale" -> scale(jobs, scalePolicies);
                default -> throw new IllegalArgumentException("unknown section " + s);
            }
        }
    }

    private static Path findTraces() {
        for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath(); d != null; d = d.getParent()) {
            Path candidate = d.resolve("shared/traces");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    private static void openb(Path traces) {
        if (traces == null) {
            System.out.println("openb: ../shared/traces not found, skipped");
            return;
        }
        Path dir = traces.resolve("alibaba-gpu-v2023");
        Cluster c = ClusterReader.read(dir.resolve("openb_node_list_all_node.csv"), 16);
        Path pods = dir.resolve("openb_pod_list_default.csv");
        SimulationConfig config = SimulationConfig.of(c);
        System.out.printf(Locale.ROOT, "%n== openb replay: 8,152 pods on %d nodes / %d GPUs (stream from file, median of 3 after 1 warm-up)%n",
                c.nodes().size(), c.totalGpus());
        List<SimulationResult> results = new ArrayList<>();
        for (String p : OPENB_POLICIES) {
            long[] ms = new long[4];
            long[] cpu = new long[4];
            SimulationResult last = null;
            for (int i = 0; i < ms.length; i++) {
                long t = System.nanoTime();
                long c0 = THREADS.getCurrentThreadCpuTime();
                try (TraceReader r = new OpenbPodReader(pods, false)) {
                    last = new Simulator(config).run(Policies.parse(p), r);
                }
                cpu[i] = (THREADS.getCurrentThreadCpuTime() - c0) / 1_000_000;
                ms[i] = (System.nanoTime() - t) / 1_000_000;
            }
            long[] measured = Arrays.copyOfRange(ms, 1, 4);
            long[] measuredCpu = Arrays.copyOfRange(cpu, 1, 4);
            Arrays.sort(measured);
            Arrays.sort(measuredCpu);
            System.out.printf(Locale.ROOT, "  %-14s median wall %5d ms, thread CPU %5d ms  (warm-up: wall %d ms, CPU %d ms)%n",
                    p, measured[1], measuredCpu[1], ms[0], cpu[0]);
            results.add(last);
        }
        System.out.print(MetricsWriter.table(results));
    }

    private static void fill(Path traces) {
        if (traces == null) {
            System.out.println("fill: ../shared/traces not found, skipped");
            return;
        }
        Path dir = traces.resolve("alibaba-gpu-v2023");
        Cluster c = ClusterReader.read(dir.resolve("openb_node_list_all_node.csv"), 16);
        for (String file : List.of("openb_pod_list_default.csv", "openb_pod_list_multigpu50.csv")) {
            List<Job> pods = new ArrayList<>();
            try (TraceReader r = new OpenbPodReader(dir.resolve(file), false, true)) { // as simulate --fill: pending pods too
                r.forEachRemaining(pods::add);
            }
            System.out.printf(Locale.ROOT, "%n== fill (FGD methodology) %s on %d GPUs: unallocated GPUs at arrived demand, mean of 5 runs%n",
                    file, c.totalGpus());
            System.out.printf(Locale.ROOT, "  %-10s %8s %8s %8s %8s %10s %8s%n", "placement", "@80%", "@90%", "@100%", "@110%",
                    "dropped", "wall");
            for (String p : FILL_PLACEMENTS) {
                FillExperiment.Result f = FillExperiment.run(c, pods, () -> ((StandardPolicy) Policies.parse(p)).placement(),
                        5, 42, 1, 120);
                System.out.printf(Locale.ROOT, "  %-10s %8.1f %8.1f %8.1f %8.1f %10.0f %6d ms%n", p, f.unallocatedAt(80),
                        f.unallocatedAt(90), f.unallocatedAt(100), f.unallocatedAt(110), f.failedTasks(), f.wallMillis());
            }
        }
    }

    private static void helios() throws IOException {
        // Venus-sized: 1,022 GPUs in the Helios summary; 128 nodes x 8 GPUs, 16 nodes per rack
        Cluster c = ClusterReader.synthetic("nodes=128,gpus=8,rack=16", 16);
        for (double load : new double[]{1.0, 1.25}) {
            heliosAt(c, load);
        }
    }

    private static void heliosAt(Cluster c, double load) throws IOException {
        Path log = Files.createTempFile("helios-synthetic-", "-cluster_log.csv");
        try {
            new SyntheticTrace(50_000, 2020, load, c.totalGpus(), 64, 200).writeHelios(log);
            System.out.printf(Locale.ROOT, "%n== Helios-format synthetic trace: 50,000 GPU jobs at offered load %.2f on %d GPUs (%s)%n",
                    load, c.totalGpus(), log);
            List<SimulationResult> results = new ArrayList<>();
            for (String p : HELIOS_POLICIES) {
                try (TraceReader r = new HeliosTraceReader(log, false)) {
                    results.add(new Simulator(SimulationConfig.of(c)).run(Policies.parse(p), r));
                }
            }
            System.out.print(MetricsWriter.table(results));
            double fifo = results.getFirst().jct().mean();
            for (SimulationResult r : results) {
                System.out.printf(Locale.ROOT, "  %-6s avg JCT %9.0f s   FIFO / policy = %.2fx%n", r.policy(), r.jct().mean(),
                        fifo / r.jct().mean());
            }
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static void scale(long jobs, List<String> policies) {
        Cluster c = ClusterReader.synthetic("nodes=1250,gpus=8,rack=32", 32);
        System.out.printf(Locale.ROOT, "%n== scale: synthetic jobs on %d GPUs (1,250 nodes x 8), offered load 0.9, one thread%n",
                c.totalGpus());
        for (String p : policies) {
            for (long n : new long[]{jobs / 10, jobs}) {
                System.gc();
                long[] liveAfterGc = {0};
                long t = System.nanoTime();
                long c0 = THREADS.getCurrentThreadCpuTime();
                SimulationResult r = new Simulator(SimulationConfig.of(c)).run(Policies.parse(p),
                        new SyntheticTrace(n, 42, 0.9, c.totalGpus(), 64, 1000),
                        (policy, seen, simSeconds) -> {
                            if (seen % 100_000 == 0) {
                                liveAfterGc[0] = Math.max(liveAfterGc[0], liveHeap());
                            }
                        });
                long cpuMs = (THREADS.getCurrentThreadCpuTime() - c0) / 1_000_000;
                long ms = (System.nanoTime() - t) / 1_000_000;
                System.out.printf(Locale.ROOT, "  %-6s %,10d jobs  wall %6d ms  thread CPU %6d ms  %,9.0f jobs/CPU-s  live heap %3d MB  (avg JCT %s, util %.1f%%, preemptions %d)%n",
                        p, n, ms, cpuMs, n * 1000.0 / Math.max(1, cpuMs), liveAfterGc[0] >> 20, MetricsWriter.duration(r.jct().mean()),
                        r.meanUtilization() * 100, r.preemptions());
            }
        }
    }

    /** Heap in use right after a full collection: the live set, not garbage awaiting collection. */
    private static long liveHeap() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
