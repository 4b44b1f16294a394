package dev.continuum.bench.planner;

import dev.continuum.bench.measure.Percentiles;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.model.Topology;
import dev.continuum.placement.core.planner.DataReference;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.simulator.trace.ClusterReader;

import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;

/**
 * Decision latency of the online planner at datacenter scale; prints numbers, asserts nothing.
 * <pre>
 * java -Xmx1g -cp bench/target/continuum-bench-0.1.0-SNAPSHOT-runner.jar dev.continuum.bench.planner.PlannerBench \
 *      [--policies fifo,las+fgd] [--waiting 10000] [--decisions 20000] [--gateways 200]
 * </pre>
 * The world: a training cluster of 1,250 nodes x 8 GPUs (10,000 GPUs), a datacenter inference pool, 200 one-GPU
 * gateways each holding its own data behind its own link. Training jobs (1-32 GPUs) are placed until every GPU is
 * taken and {@code --waiting} jobs wait. Then, after a warm-up of the same length, each measured step is one of:
 * an inference job (half the steps), a training job or a training completion (a quarter each, so the queue stays
 * near its size); every 10th step one gateway's heartbeat changes the inventory. One thread, as the planner runs.
 */
public final class PlannerBench {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private static final String[] MODELS = {"resnet", "bert"};

    public static void main(String[] args) {
        List<String> policies = List.of("fifo", "las+fgd");
        int waiting = 10_000;
        int decisions = 20_000;
        int gateways = 200;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--policies" -> policies = List.of(args[++i].split(","));
                case "--waiting" -> waiting = Integer.parseInt(args[++i]);
                case "--decisions" -> decisions = Integer.parseInt(args[++i]);
                case "--gateways" -> gateways = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        System.out.printf(Locale.ROOT, "java %s, %d cores, max heap %d MB%n", System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        for (String policy : policies) {
            new Run(policy, gateways, waiting).measure(decisions);
        }
    }

    /** One planner under one policy, filled to the asked queue length. */
    private static final class Run {
        private final String policy;
        private final OnlinePlanner planner;
        private final Random random = new Random(42);
        private final List<String> gatewayNames = new ArrayList<>();
        private final LinkedHashSet<String> running = new LinkedHashSet<>();
        private final List<String> runningList = new ArrayList<>();
        private Inventory inventory;
        private long now = 1_800_000_000_000L;
        private int seq;
        private int waitingJobs;

        Run(String policy, int gateways, int waiting) {
            this.policy = policy;
            this.inventory = world(gateways);
            this.planner = new OnlinePlanner(PlannerConfig.DEFAULT.withPolicy(policy));
            planner.update(inventory, now);
            long t = System.nanoTime();
            while (waitingJobs < waiting) {
                place(training());
            }
            System.out.printf(Locale.ROOT, "%n== %s: %,d GPUs busy in %,d training jobs, %,d waiting; %d gateways; filled in %d ms, live heap %d MB%n",
                    policy, 10_000, running.size(), waitingJobs, gateways, (System.nanoTime() - t) / 1_000_000, liveHeapMb());
        }

        private Inventory world(int gateways) {
            Cluster synthetic = ClusterReader.synthetic("nodes=1250,gpus=8,rack=32", 32);
            List<Cluster> clusters = new ArrayList<>();
            clusters.add(new Cluster(new Site("dc-train", Site.Kind.DATACENTER), synthetic.nodes(), List.of(), List.of(),
                    synthetic.topology()));
            List<NodeSpec> pool = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                pool.add(new NodeSpec("pool-" + i, "pool", 4, "A100", 81_920, 64_000, 512_000));
            }
            clusters.add(new Cluster(new Site("dc-pool", Site.Kind.DATACENTER), pool, List.of(), List.of(), Topology.DEFAULT));
            List<Link> links = new ArrayList<>();
            Map<String, String> endpoints = new HashMap<>();
            Map<String, SiteStatus> status = new HashMap<>();
            endpoints.put("ep-dc", "dc-pool");
            status.put("dc-pool", SiteStatus.inference(0, Set.of(MODELS)));
            status.put("dc-train", SiteStatus.training());
            for (int i = 0; i < gateways; i++) {
                String name = String.format(Locale.ROOT, "gw-%03d", i);
                gatewayNames.add(name);
                clusters.add(new Cluster(new Site(name, Site.Kind.EDGE),
                        List.of(new NodeSpec(name, "", 1, i % 2 == 0 ? "T4" : "Orin", 16_384, 8_000, 32_768)),
                        List.of(), List.of(), Topology.DEFAULT));
                links.add(new Link(name, "dc-pool", 0.01 + random.nextInt(100) / 100.0, 5 + random.nextInt(40)));
                endpoints.put("ep-" + name, name);
                status.put(name, SiteStatus.inference(random.nextInt(10), Set.of(MODELS)));
            }
            return new Inventory(clusters, links, endpoints, status);
        }

        private long tick() {
            now += 50;
            return now;
        }

        private PlacementRequest training() {
            int gpus = 1 << Math.min(5, Integer.numberOfTrailingZeros(random.nextInt() | 64));
            return PlacementRequest.training("t" + seq++, Demand.wholeGpus(gpus), "", 600 + random.nextInt(36_000));
        }

        private PlacementRequest inference() {
            String gw = gatewayNames.get(random.nextInt(gatewayNames.size()));
            return PlacementRequest.inference("i" + seq++, MODELS[random.nextInt(2)], Demand.wholeGpus(1),
                    List.of(new DataReference("ep-" + gw, "/in", random.nextInt(50_000_000))), 500);
        }

        private void place(PlacementRequest r) {
            track(planner.place(r, tick()).decisions(), r.id());
        }

        /** Keeps the running set and the waiting count; {@code newId}'s own start was never waiting. */
        private void track(List<PlacementDecision> decisions, String newId) {
            for (PlacementDecision d : decisions) {
                switch (d) {
                    case PlacementDecision.Placed p when p.chosen().site().equals("dc-train") -> {
                        if (running.add(d.requestId())) {
                            runningList.add(d.requestId());
                        }
                        waitingJobs -= d.requestId().equals(newId) ? 0 : 1;
                    }
                    case PlacementDecision.Queued q -> waitingJobs++;
                    case PlacementDecision.Preempted p -> {
                        running.remove(d.requestId());
                        waitingJobs++;
                    }
                    default -> { }
                }
            }
        }

        private void completeOne() {
            while (!runningList.isEmpty()) {
                String id = runningList.remove(random.nextInt(runningList.size()));
                if (running.remove(id)) {
                    track(planner.observe(new Observation.JobCompleted(id, "dc-train", "", 0, tick())), "");
                    return;
                }
            }
        }

        private void heartbeat() {
            String gw = gatewayNames.get(random.nextInt(gatewayNames.size()));
            inventory = inventory.withStatus(gw, SiteStatus.inference(random.nextInt(40), Set.of(MODELS)));
            track(planner.update(inventory, tick()), "");
        }

        void measure(int decisions) {
            steps(decisions, null, null);
            Map<String, List<Double>> wall = new TreeMap<>();
            Map<String, List<Double>> cpu = new TreeMap<>();
            for (String kind : List.of("inference", "training", "completion", "heartbeat")) {
                wall.put(kind, new ArrayList<>(decisions));
                cpu.put(kind, new ArrayList<>(decisions));
                allocated.put(kind, new long[1]);
            }
            List<GarbageCollectorMXBean> collectors = ManagementFactory.getGarbageCollectorMXBeans();
            long gcCount = collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum();
            long gcMillis = collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum();
            long t = System.nanoTime();
            long c = THREADS.getCurrentThreadCpuTime();
            steps(decisions, wall, cpu);
            double seconds = (System.nanoTime() - t) / 1e9;
            double cpuSeconds = (THREADS.getCurrentThreadCpuTime() - c) / 1e9;
            int calls = wall.values().stream().mapToInt(List::size).sum();
            System.out.printf(Locale.ROOT, "  %,d calls (after a warm-up of as many) in %.2f s wall, %.2f s thread CPU: %,.0f calls/s wall, %,.0f calls per CPU-second; load average %s%n",
                    calls, seconds, cpuSeconds, calls / seconds, calls / cpuSeconds, loadAverage());
            System.out.printf(Locale.ROOT, "  queue now %,d waiting, %,d running; %d young collections, %d ms in GC; live heap after GC %d MB%n",
                    waitingJobs, running.size(),
                    collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionCount).sum() - gcCount,
                    collectors.stream().mapToLong(GarbageCollectorMXBean::getCollectionTime).sum() - gcMillis,
                    liveHeapMb());
            for (String kind : wall.keySet()) {
                Percentiles w = Percentiles.of(wall.get(kind));
                Percentiles p = Percentiles.of(cpu.get(kind));
                System.out.printf(Locale.ROOT, "  %-10s %,7d calls  wall p50 %7.1f µs p99 %8.1f µs max %9.1f µs   thread CPU p50 %7.1f µs p99 %8.1f µs   allocated %5.1f kB a call%n",
                        kind, w.count(), w.p50(), w.p99(), w.max(), p.p50(), p.p99(),
                        allocated.get(kind)[0] / 1e3 / Math.max(1, w.count()));
            }
        }

        /** Bytes allocated by the measured calls of each kind: what makes the young collections. */
        private final Map<String, long[]> allocated = new TreeMap<>();

        private void steps(int n, Map<String, List<Double>> wall, Map<String, List<Double>> cpu) {
            for (int i = 0; i < n; i++) {
                if (i % 10 == 9) {
                    timed(wall, cpu, "heartbeat", this::heartbeat);
                }
                int dice = random.nextInt(4);
                if (dice < 2) {
                    PlacementRequest r = inference();
                    timed(wall, cpu, "inference", () -> place(r));
                } else if (dice == 2) {
                    PlacementRequest r = training();
                    timed(wall, cpu, "training", () -> place(r));
                } else {
                    timed(wall, cpu, "completion", this::completeOne);
                }
            }
        }

        private void timed(Map<String, List<Double>> wall, Map<String, List<Double>> cpu, String kind,
                           Runnable step) {
            long a = THREADS.getCurrentThreadAllocatedBytes();
            long c = THREADS.getCurrentThreadCpuTime();
            long t = System.nanoTime();
            step.run();
            long dt = System.nanoTime() - t;
            if (wall != null) {
                wall.get(kind).add(dt / 1e3);
                cpu.get(kind).add((THREADS.getCurrentThreadCpuTime() - c) / 1e3);
                allocated.get(kind)[0] += THREADS.getCurrentThreadAllocatedBytes() - a;
            }
        }
    }

    /** The 1, 5 and 15 minute load averages: the machine is shared, so latency depends on them. */
    private static String loadAverage() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException | ArrayIndexOutOfBoundsException e) {
            return "unknown";
        }
    }

    private static long liveHeapMb() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }
}
