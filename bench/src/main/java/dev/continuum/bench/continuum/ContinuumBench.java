package dev.continuum.bench.continuum;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.edge.fleet.Fleet;
import dev.continuum.edge.fleet.FleetSites;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.ResultMessage;
import dev.continuum.edge.protocol.TaskMessage;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.placement.simulator.cli.ContinuumComparison;
import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.planner.DataReference;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.LatencyEstimate;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.SiteStatus;
import dev.continuum.placement.simulator.ContinuumSimulator;
import dev.continuum.provider.inference.EdgeCloud;
import io.vertx.core.Vertx;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The emulated continuum (docs/benchmarks.md, "Planner: emulated continuum"); prints numbers, asserts nothing.
 * Run by {@code bench/scripts/continuum-bench.sh}, which makes the network: two gateway processes each in its own
 * Linux network namespace behind a veth pair rate-limited by {@code tc tbf} — {@code gw-fast} at 1 Gbit/s,
 * {@code gw-slow} at 10 Mbit/s, each way — a third gateway process in the root namespace as the
 * datacenter pool ({@code dc-pool}), a Mosquitto broker, and in each namespace an HTTP server over the gateway's
 * data directory: the path an input takes when it leaves its gateway. Every gateway runs the real OCR classifier on
 * ONNX Runtime; dc-pool is the gateway runtime in the datacenter role ({@code --role datacenter}).
 * <p>
 * A job's input (a tensor document, ~300 kB) sits at gw-fast or gw-slow. Run where it is: the task names the file
 * ({@code input_ref}). Run elsewhere: moved as the inference provider moves it ({@code InputMover}: the transfer
 * provider copies the file into the chosen site's data directory, the task names the copy) — the driver fetches the
 * bytes from the holder's namespace over its shaped link, unparsed, writes them under {@code continuum-inputs/} in
 * the chosen site's data directory (the namespaces share the filesystem) and sends the task with that
 * {@code input_ref}; the gateway there reads and parses it as it reads a local input. The same Poisson stream of
 * jobs runs under planner (the online planner's {@link OnlinePlanner}, fed the fleet's heartbeats, the tasks in
 * flight, each completion's compute time and each moved input's fetch time as {@link Observation.InputMoved}),
 * edge-only, datacenter-only, round-robin and least-loaded; then the same jobs go through the simulator ({@link
 * ContinuumSimulator}) on the configured links and the compute times measured in the warm-up, and the two rankings
 * are compared.
 */
public final class ContinuumBench {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "ocr-cls";
    private static final long[] SHAPE = {1, 3, 48, 192};
    private static final List<String> EDGE = List.of("gw-fast", "gw-slow");
    private static final String DC = "dc-pool";
    /** Warm-up tasks per site, one at a time; the first 10 only warm the JIT up. */
    private static final int WARM_UP = 40;
    private static final List<String> POLICIES = List.of("planner", "edge-only", "datacenter-only", "round-robin",
            "least-loaded");

    /** Where a gateway runs: its namespace (null: the root one), the broker address it sees, its data server. */
    private record Gateway(String name, String namespace, String broker, String dataHost) {
    }

    private record Job(int index, long atMillis, String holder, String file, long bytes) {
    }

    /**
     * One job's outcome: where, end to end, the planner's prediction (0 for the other policies) and split, and the
     * actual split — {@code transfer} moving an input into the chosen site's data directory (the wait for the
     * holder's link, fetching the bytes over it, writing them), {@code overhead} the rest of the round trip outside
     * the gateway's queue and compute (the task's MQTT trip, decoding, spooling, the result's trip back), {@code
     * queue} the gateway's wait, {@code compute} reading and parsing the input file and the ONNX run of its batch of
     * {@code batch} tasks;
     * {@code ahead} the tasks this driver had in flight at the site when the job was placed there; {@code job} the
     * job's index in the stream and {@code placedAt} when it was placed (ms from the policy's start), so an offline
     * replay can tell which completions the planner had seen at each decision.
     */
    private record Outcome(String site, String holder, long latencyMillis, long predictedMillis,
                           LatencyEstimate predicted, long transfer, long fetch, long overhead, long queue, long compute,
                           int batch, int ahead, int job, long placedAt) {
        /** Where the input came from: "local" when it ran beside it, else "from" its holder. */
        String inputCase() {
            return site.startsWith(holder) ? "local" : "from " + holder;
        }
    }

    private final Path work;
    private final Path gatewayJar;
    private final Path model;
    private final int brokerPort;
    private final int jobs;
    private final double rate;
    private final long sloMillis;
    private final List<Gateway> gateways;
    private final List<Process> children = new ArrayList<>();
    private final Map<String, Process> gatewayProcesses = new LinkedHashMap<>();
    private final String edgeCpu;
    /** The planner's configuration: how it ranks sites ({@code --choose-by mean|p90}, the script's CHOOSE_BY=). */
    private final PlannerConfig plannerConfig;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    /**
     * One fetcher per holder: its link carries inputs one after another (as the planner and the simulator model a
     * link), so each fetch's own time measures the link, and the wait behind others is apart from it.
     */
    private final Map<String, java.util.concurrent.ExecutorService> fetchers = new ConcurrentHashMap<>();

    /**
     * A moved input, landed in the chosen site's data directory: the {@code input_ref} naming it there, its size, and
     * what fetching and writing it took (the wait for the link excluded) — the move the planner is told of.
     */
    private record Fetched(String inputRef, long bytes, long millis) {
    }

    /** What a warm-up task taught: where it ran, where its input was, and the measured terms. */
    private record Warm(String site, Job job, long computePerTask, long overhead, Fetched fetched, long queued) {
    }

    private final List<Warm> warm = new ArrayList<>();
    private EdgeCloud cloud;

    private ContinuumBench(Map<String, String> a) {
        this.work = Path.of(a.getOrDefault("--work", "/tmp/continuum-bench"));
        this.gatewayJar = Path.of(a.get("--gateway-jar"));
        this.model = Path.of(a.get("--model"));
        this.brokerPort = Integer.parseInt(a.getOrDefault("--broker-port", "18833"));
        this.jobs = Integer.parseInt(a.getOrDefault("--jobs", "400"));
        this.rate = Double.parseDouble(a.getOrDefault("--rate", "8"));
        this.sloMillis = Long.parseLong(a.getOrDefault("--slo-ms", "1000"));
        this.edgeCpu = a.getOrDefault("--edge-cgroup", "");
        this.plannerConfig = PlannerConfig.DEFAULT.withChooseBy(a.getOrDefault("--choose-by",
                PlannerConfig.DEFAULT.chooseBy()));
        this.gateways = List.of(
                new Gateway("gw-fast", a.getOrDefault("--fast-ns", "c13-fast"), a.getOrDefault("--fast-broker", "10.213.1.1"),
                        a.getOrDefault("--fast-host", "10.213.1.2")),
                new Gateway("gw-slow", a.getOrDefault("--slow-ns", "c13-slow"), a.getOrDefault("--slow-broker", "10.213.2.1"),
                        a.getOrDefault("--slow-host", "10.213.2.2")),
                new Gateway(DC, null, "127.0.0.1", null));
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            a.put(args[i], args[i + 1]);
        }
        ContinuumBench bench = new ContinuumBench(a);
        try {
            bench.run();
        } finally {
            bench.stop();
        }
        System.exit(0);
    }

    /** The links as configured for the planner and the simulator: what tc makes them (rates; no added delay). */
    private static List<Link> links() {
        return List.of(new Link("gw-fast", DC, 1.0, 1), new Link("gw-slow", DC, 0.01, 1),
                new Link("gw-fast", "gw-slow", 0.01, 1));
    }

    private void run() throws Exception {
        Files.createDirectories(work);
        String secret = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
        DeviceCredentials credentials = DeviceCredentials.fromSecret(secret, Clock.systemUTC());
        String root = "c13-" + Long.toHexString(System.nanoTime());
        Topics topics = new Topics(root);
        Vertx vertx = Vertx.vertx();
        cloud = new EdgeCloud(vertx, "127.0.0.1", brokerPort, root + "-driver", topics, credentials, Clock.systemUTC());
        cloud.start().get(20, TimeUnit.SECONDS);
        for (Gateway g : gateways) {
            start(g, root, credentials.bootstrapToken(g.name()));
            inFlight.put(g.name(), new AtomicInteger());
        }
        long until = System.currentTimeMillis() + 120_000;
        while (cloud.fleet().usable().size() < gateways.size()) {
            if (System.currentTimeMillis() > until) {
                throw new IllegalStateException("gateways not online after 120 s; logs in " + work);
            }
            Thread.sleep(200);
        }
        System.out.printf(Locale.ROOT, "gateways online: %s; load average %s%n",
                cloud.fleet().usable().stream().map(Fleet.Device::deviceId).sorted().toList(), load());
        if (!edgeCpu.isEmpty()) {
            // an edge device is weaker than the datacenter: each edge gateway gets the CPU share its cgroup allows
            for (String g : EDGE) {
                Files.writeString(Path.of(edgeCpu + "-" + g, "cgroup.procs"), String.valueOf(gatewayProcesses.get(g).pid()));
            }
            System.out.println("edge gateways capped by " + edgeCpu + "-{gw-fast,gw-slow}: cpu.cfs_quota_us "
                    + Files.readString(Path.of(edgeCpu + "-gw-fast", "cpu.cfs_quota_us")).trim() + " per cpu.cfs_period_us "
                    + Files.readString(Path.of(edgeCpu + "-gw-fast", "cpu.cfs_period_us")).trim());
        }

        List<Job> stream = jobs();
        long bytes = stream.stream().mapToLong(Job::bytes).sum() / stream.size();
        // a gateway capped at 0.1 CPU compiles its hot paths slowly (the JIT shares the quota): the whole stream once,
        // round-robin so every path runs on every site, not counted, so the first policy measured meets warm gateways
        System.out.println("warm-up pass (the stream under round-robin, not counted):");
        play("round-robin", stream, topics);
        Thread.sleep(3000);
        Map<String, Double> compute = warmUp(stream);
        Map<String, Double> burst = saturated(stream);
        Map<String, Double> busy = streamed(stream, compute);
        for (String batch : List.of("warm", "busy-calibration", "streamed-calibration")) {
            forget(batch);
        }
        System.out.printf(Locale.ROOT, "%d jobs, Poisson at %.1f/s, input ~%d kB at gw-fast or gw-slow (half each), SLO %d ms; "
                + "measured one at a time, median ms: compute (input file read and parsed + ONNX) %s, overhead (round trip outside queue and compute) %s%n",
                stream.size(), rate, bytes / 1000, sloMillis, compute, warmOverhead);
        System.out.printf(Locale.ROOT, "  busy: ms per task with %d sent at once, inputs at the site (the pool: moved there first) %s; "
                + "with %d sent one by one, faster than served (the simulator's service time) %s%n", BURST, burst, STREAMED, busy);

        Map<String, List<Outcome>> results = new LinkedHashMap<>();
        for (String policy : POLICIES) {
            results.put(policy, play(policy, stream, topics));
            Thread.sleep(3000); // the queues drain and heartbeats catch up between policies
        }
        System.out.println();
        System.out.println("emulated (real gateways, ONNX Runtime, MQTT, tc-shaped links); load average " + load());
        System.out.printf(Locale.ROOT, "%-16s %10s %10s %8s %18s  %s%n", "policy", "p50", "p95", "SLO met",
                "prediction error", "jobs per site");
        List<String> emulatedRanking = new ArrayList<>(POLICIES);
        emulatedRanking.sort((x, y) -> Long.compare(p(results.get(x), 0.95), p(results.get(y), 0.95)));
        for (String policy : emulatedRanking) {
            List<Outcome> o = results.get(policy);
            System.out.printf(Locale.ROOT, "%-16s %7d ms %7d ms %6.1f %% %18s  %s%n", policy, p(o, 0.5), p(o, 0.95),
                    100.0 * o.stream().filter(x -> x.latencyMillis() <= sloMillis).count() / o.size(),
                    policy.equals("planner") ? String.format(Locale.ROOT, "%.1f %% median", 100 * medianError(o)) : "-",
                    perSite(o));
        }
        System.out.println("emulated ranking by p95: " + String.join(" < ", emulatedRanking));
        // per site and where its input came from: a moved input's terms differ from a local one's, and a mix of the
        // two hides which term is off
        Map<String, List<Outcome>> bySite = new java.util.TreeMap<>();
        results.get("planner").forEach(o -> bySite.computeIfAbsent(o.site() + ", " + o.inputCase(),
                k -> new ArrayList<>()).add(o));
        System.out.println("  planner per site and input, medians in ms — predicted transfer (input + learnt overhead) / "
                + "queue / compute = total; actual transfer (wait for the link + fetch and write) + overhead / queue / "
                + "compute (batch input + ONNX), batch size");
        bySite.forEach((site, os) -> System.out.printf(Locale.ROOT,
                "  %-22s %3d jobs: predicted %4d / %4d / %4d = %5d; actual (%4d + %4d) + %4d / %4d / %4d = %5d (batch %d); "
                        + "|error| %.1f %%, signed %+.1f %%%n", site, os.size(),
                median(os, o -> o.predicted().transferMillis()), median(os, o -> o.predicted().queueMillis()),
                median(os, o -> o.predicted().computeMillis()), median(os, Outcome::predictedMillis),
                median(os, o -> o.transfer() - o.fetch()), median(os, Outcome::fetch), median(os, Outcome::overhead),
                median(os, Outcome::queue), median(os, Outcome::compute), median(os, Outcome::latencyMillis),
                median(os, o -> o.batch()), 100 * medianError(os), 100 * medianSignedError(os)));
        if (System.getenv("CONTINUUM_BENCH_JOBS_CSV") != null) {
            writeCsv(Path.of(System.getenv("CONTINUUM_BENCH_JOBS_CSV")), results);
        }
        long worse = Math.max(p(results.get("edge-only"), 0.95), p(results.get("datacenter-only"), 0.95));
        System.out.printf(Locale.ROOT, "planner p95 vs the worse single-site policy: %.1fx lower (target ≥ 3x)%n",
                worse / (double) Math.max(1, p(results.get("planner"), 0.95)));

        ContinuumSimulator.Topology topology = topology(compute, busy);
        List<ContinuumSimulator.Arrival> arrivals = stream.stream().map(j -> new ContinuumSimulator.Arrival(
                "job-" + j.index(), j.atMillis(), MODEL, j.holder(), j.bytes(), sloMillis)).toList();
        var simulated = ContinuumComparison.run(topology, arrivals, plannerConfig);
        System.out.println();
        System.out.println("the same jobs in the simulator, links and sites as measured in the warm-up: "
                + String.join(", ", topology.links().stream().map(l -> String.format(Locale.ROOT, "%s–%s %.1f Mbit/s",
                l.from(), l.to(), l.bandwidthGbps() * 1000)).toList()) + "; "
                + String.join(", ", topology.sites().stream().map(x -> String.format(Locale.ROOT,
                "%s %.1f ms per task + %d ms overhead", x.name(), x.computeMillis().get(MODEL), x.overheadMillis())).toList()));
        java.io.PrintWriter out = new java.io.PrintWriter(System.out, true);
        ContinuumComparison.print(simulated, out);
        List<String> simRanking = ContinuumComparison.ranking(simulated).stream().map(ContinuumSimulator.Choice::label).toList();
        printChoices(topology, arrivals);
        System.out.println("rankings agree: " + (simRanking.equals(emulatedRanking) ? "yes"
                : "no (emulated " + emulatedRanking + ", simulated " + simRanking + ")")
                + "; best policy agrees: " + (simRanking.getFirst().equals(emulatedRanking.getFirst()) ? "yes" : "no"));
        cloud.close();
        vertx.close();
    }

    /**
     * The planner in the simulator by the mean and by the p90, with each site's tasks varying as its warm-up tasks
     * did (compute + overhead per task over their mean, drawn per task): the comparison above serves every task in
     * the same time, where a ranking by the spread has nothing to tell apart.
     */
    private void printChoices(ContinuumSimulator.Topology topology, List<ContinuumSimulator.Arrival> arrivals) {
        List<ContinuumSimulator.SiteSpec> varying = new ArrayList<>();
        for (ContinuumSimulator.SiteSpec site : topology.sites()) {
            double[] ms = warm.stream().filter(w -> w.site().equals(site.name()))
                    .mapToDouble(w -> w.computePerTask() + w.overhead()).toArray();
            double mean = java.util.Arrays.stream(ms).average().orElse(1);
            varying.add(site.varying(java.util.Arrays.stream(ms).map(x -> x / mean).boxed().toList()));
        }
        ContinuumSimulator.Topology spread = new ContinuumSimulator.Topology(varying, topology.links(),
                topology.siteByEndpoint());
        System.out.println("the planner in the simulator, each site's tasks varying as its warm-up tasks did:");
        for (String by : List.of(PlannerConfig.MEAN, "p90")) {
            ContinuumSimulator.Result r = new ContinuumSimulator(spread, plannerConfig.withChooseBy(by))
                    .run(ContinuumSimulator.Choice.PLANNER, arrivals);
            Map<String, Integer> perSite = new java.util.TreeMap<>();
            r.outcomes().forEach(o -> perSite.merge(o.site(), 1, Integer::sum));
            System.out.printf(Locale.ROOT, "  choose-by=%-4s p50 %5d ms p95 %5d ms SLO %5.1f %% prediction error p50 / p90 "
                    + "%.1f / %.1f %%  %s%n", by, r.p(0.5), r.p(0.95), 100 * r.sloAttainment(),
                    100 * r.medianPredictionError(), 100 * r.predictionError(0.9), perSite);
        }
    }

    /**
     * The simulator's sites: one worker each, serving a task in the time the site took per task when a stream kept it
     * busy ({@link #streamed}; a gateway capped at 0.1 CPU spends that CPU on decoding and spooling and MQTT as well
     * as on the model, so it serves fewer tasks per second than its compute alone says), and the rest of the
     * one-at-a-time round trip as overhead.
     * (With the compute alone the simulator ranked edge-only second where it came fourth: its gateways never queued.)
     */
    private ContinuumSimulator.Topology topology(Map<String, Double> compute, Map<String, Double> busy) {
        List<ContinuumSimulator.SiteSpec> sites = new ArrayList<>();
        for (Gateway g : gateways) {
            double c = compute.getOrDefault(g.name(), 10.0);
            double service = Math.max(c, busy.getOrDefault(g.name(), c));
            long overhead = Math.max(0, Math.round(warmOverhead.getOrDefault(g.name(), 0L) - (service - c)));
            sites.add(new ContinuumSimulator.SiteSpec(g.name(), g.name().equals(DC) ? Site.Kind.DATACENTER : Site.Kind.EDGE,
                    1, "cpu", Map.of(MODEL, service), overhead));
        }
        return new ContinuumSimulator.Topology(sites, measuredLinks(), Map.of("gw-fast", "gw-fast", "gw-slow", "gw-slow", DC, DC));
    }

    /**
     * The links as the warm-up measured them (median bytes/s of fetching and writing an input from each holder, what
     * the planner learns too), never faster than configured: an HTTP fetch and a file write on a shared 2-core host
     * make gw-fast's 1 Gbit/s link carry inputs at tens of MB/s, and with the configured rate the simulator moved them
     * for free. Between the gateways the slower holder's rate.
     */
    private List<Link> measuredLinks() {
        Map<String, Double> gbps = new LinkedHashMap<>();
        for (String holder : EDGE) {
            double[] rates = warm.stream().filter(w -> w.fetched() != null && w.job().holder().equals(holder))
                    .mapToDouble(w -> w.fetched().bytes() * 8.0 / Math.max(1, w.fetched().millis()) / 1e6).sorted().toArray();
            gbps.put(holder, rates.length == 0 ? Double.MAX_VALUE : rates[rates.length / 2]);
        }
        List<Link> out = new ArrayList<>();
        for (Link l : links()) {
            double measured = l.to().equals(DC) ? gbps.get(l.from()) : Math.min(gbps.get(l.from()), gbps.get(l.to()));
            out.add(new Link(l.from(), l.to(), Math.min(l.bandwidthGbps(), measured), l.latencyMs()));
        }
        return out;
    }

    /** Tasks sent at once to each site to measure how long it is busy per task. */
    private static final int BURST = 16;
    /** Tasks sent one by one to each site, faster than it serves them, to measure its time per task in a stream. */
    private static final int STREAMED = 24;

    /**
     * Per site, {@link #STREAMED} tasks sent one by one, each half its one-at-a-time compute after the last (so it
     * never runs dry), inputs as in {@link #saturated}: the time between its first and last result over the tasks
     * between them — what the site takes per task when a stream keeps it busy, the simulator's service time. A
     * burst sent at once is served faster than a stream (2026-11-28 08:18: 204–210 ms per task at a 0.1-CPU gateway
     * against 262–292 ms under edge-only's stream), and with the burst's time the simulator ran the gateways at
     * ~80 % load where the emulation ran them at ~100 %, and ranked edge-only above datacenter-only.
     */
    private Map<String, Double> streamed(List<Job> stream, Map<String, Double> compute) throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Gateway g : gateways) {
            List<TaskMessage> tasks = tasks(g, stream, BURST, STREAMED, "streamed-");
            long spacing = Math.max(1, Math.round(compute.getOrDefault(g.name(), 2.0) / 2));
            List<Long> resultAt = Collections.synchronizedList(new ArrayList<>());
            List<CompletableFuture<ResultMessage>> results = new ArrayList<>();
            for (TaskMessage m : tasks) {
                results.add(cloud.dispatcher().send(g.name(), m)
                        .whenComplete((r, e) -> resultAt.add(System.currentTimeMillis())));
                Thread.sleep(spacing);
            }
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            List<Long> at = new ArrayList<>(resultAt);
            Collections.sort(at);
            out.put(g.name(), Math.round((at.getLast() - at.getFirst()) * 10.0 / (at.size() - 1)) / 10.0);
        }
        return out;
    }

    /**
     * Per site, {@link #BURST} tasks sent at once (inputs at the gateway; moved to the pool beforehand):
     * the time from the first send to the last result over the tasks — what the site takes per task when busy.
     */
    private Map<String, Double> saturated(List<Job> stream) throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Gateway g : gateways) {
            List<TaskMessage> tasks = tasks(g, stream, 0, BURST, "busy-");
            long t = System.currentTimeMillis();
            List<CompletableFuture<ResultMessage>> results = tasks.stream().map(m -> cloud.dispatcher().send(g.name(), m))
                    .toList();
            CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);
            out.put(g.name(), Math.round((System.currentTimeMillis() - t) * 10.0 / tasks.size()) / 10.0);
        }
        return out;
    }

    /**
     * {@code count} tasks for site {@code g} after skipping {@code skip}: from its own data at a gateway, at the pool
     * inputs moved there from their holders first (so no move is timed with the site); each named by file.
     */
    private List<TaskMessage> tasks(Gateway g, List<Job> stream, int skip, int count, String prefix) throws Exception {
        boolean pool = g.name().equals(DC);
        List<TaskMessage> tasks = new ArrayList<>();
        for (Job j : stream.stream().filter(j -> pool || j.holder().equals(g.name())).skip(skip).limit(count).toList()) {
            String id = prefix + g.name() + "-" + j.index();
            String ref = pool ? move(j, DC, prefix + "calibration").get(60, TimeUnit.SECONDS).inputRef() : "file:" + j.file();
            tasks.add(new TaskMessage(id, MODEL, null, ref, deadline(), null));
        }
        return tasks;
    }

    /** A gateway process, in its namespace when it has one; its data directory holds the jobs' inputs. */
    private void start(Gateway g, String root, String token) throws IOException {
        Path state = work.resolve(g.name());
        Files.createDirectories(state.resolve("data/frames"));
        List<String> command = new ArrayList<>();
        if (g.namespace() != null) {
            command.addAll(List.of("ip", "netns", "exec", g.namespace()));
        }
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m", "-jar",
                gatewayJar.toString(), "--device-id", g.name(), "--broker", g.broker() + ":" + brokerPort,
                "--topic-root", root, "--state-dir", state.toString(), "--heartbeat-seconds", "1",
                "--model", MODEL + "@1=" + model, "--role", g.name().equals(DC) ? "datacenter" : "edge"));
        ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(work.resolve(g.name() + ".log").toFile());
        b.environment().put("CONTINUUM_BOOTSTRAP_TOKEN", token);
        Process p = b.start(); // `ip netns exec` execs java: the pid is the gateway's
        children.add(p);
        gatewayProcesses.put(g.name(), p);
        if (g.dataHost() != null) {
            children.add(new ProcessBuilder("ip", "netns", "exec", g.namespace(), "python3", "-m", "http.server", "8000",
                    "--bind", g.dataHost(), "--directory", state.resolve("data").toString()).redirectErrorStream(true)
                    .redirectOutput(work.resolve(g.name() + "-data.log").toFile()).start());
        }
    }

    private List<Job> jobs() throws IOException {
        Random random = new Random(13);
        List<Job> out = new ArrayList<>();
        double t = 0;
        for (int i = 0; i < jobs; i++) {
            t += -Math.log(1 - random.nextDouble()) / rate * 1000;
            String holder = EDGE.get(random.nextInt(2));
            String file = "frames/job-" + i + ".json";
            float[] v = new float[(int) (SHAPE[1] * SHAPE[2] * SHAPE[3])];
            for (int k = 0; k < v.length; k++) {
                v[k] = random.nextFloat();
            }
            Path p = work.resolve(holder).resolve("data").resolve(file);
            JSON.writeValue(p.toFile(), Map.of("shape", SHAPE, "data", v));
            out.add(new Job(i, Math.round(t), holder, file, Files.size(p)));
        }
        return out;
    }

    /** Median overhead per site measured by the warm-up (the round trip outside the gateway's queue and compute). */
    private final Map<String, Long> warmOverhead = new LinkedHashMap<>();

    /**
     * 30 tasks per site, one at a time, from its own data (or an input moved from its holder, for the pool): the
     * median compute per task (reading the input + the ONNX run, as the gateway reports them) and overhead.
     */
    private Map<String, Double> warmUp(List<Job> stream) throws Exception {
        Map<String, Double> medians = new LinkedHashMap<>();
        for (Gateway g : gateways) {
            List<Double> ms = new ArrayList<>();
            List<Long> over = new ArrayList<>();
            for (int i = 0; i < WARM_UP; i++) {
                Job j = stream.get(i);
                Fetched moved = g.name().equals(j.holder()) ? null : move(j, g.name(), "warm").get(60, TimeUnit.SECONDS);
                TaskMessage task = new TaskMessage("warm-" + g.name() + "-" + i, MODEL, null,
                        moved == null ? "file:" + j.file() : moved.inputRef(), deadline(), null);
                long t = System.currentTimeMillis();
                ResultMessage r = cloud.dispatcher().send(g.name(), task).get(60, TimeUnit.SECONDS);
                if (i >= 10) { // the first ones warm the JIT up
                    ms.add(r.inputMs() + r.inferenceMs());
                    long overhead = Math.round(System.currentTimeMillis() - t - r.queuedMs() - r.inputMs() - r.inferenceMs());
                    over.add(overhead);
                    warm.add(new Warm(g.name(), j, Math.max(1, Math.round((r.inputMs() + r.inferenceMs())
                            / Math.max(1, r.batchSize()))), Math.max(0, overhead), moved, Math.round(r.queuedMs())));
                }
            }
            Collections.sort(ms);
            Collections.sort(over);
            warmOverhead.put(g.name(), over.get(over.size() / 2));
            medians.put(g.name(), Math.round(ms.get(ms.size() / 2) * 10) / 10.0);
        }
        return medians;
    }

    private List<Outcome> play(String policy, List<Job> stream, Topics topics) throws Exception {
        OnlinePlanner planner = new OnlinePlanner(plannerConfig);
        Object plannerLock = new Object();
        List<Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(stream.size());
        ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
        AtomicInteger roundRobin = new AtomicInteger();
        String run = policy + "-" + Long.toHexString(System.nanoTime());
        if (policy.equals("planner")) {
            seed(planner, run);
        }
        long start = System.currentTimeMillis() + 500;
        for (Job j : stream) {
            clock.schedule(() -> {
                long t0 = System.currentTimeMillis();
                long[] predicted = {0};
                LatencyEstimate[] split = {LatencyEstimate.NONE};
                String site = switch (policy) {
                    case "edge-only" -> j.holder();
                    case "datacenter-only" -> DC;
                    case "round-robin" -> gateways.get(roundRobin.getAndIncrement() % gateways.size()).name();
                    case "least-loaded" -> gateways.stream().map(Gateway::name)
                            .min((x, y) -> Integer.compare(inFlight.get(x).get(), inFlight.get(y).get())).orElseThrow();
                    default -> {
                        synchronized (plannerLock) {
                            planner.update(inventory(), t0);
                            PlacementDecision d = planner.place(PlacementRequest.inference(run + "-" + j.index(), MODEL,
                                    Demand.wholeGpus(0), List.of(new DataReference(j.holder(), "/" + j.file(), j.bytes())),
                                    sloMillis), t0).decision();
                            if (d instanceof PlacementDecision.Placed p) {
                                predicted[0] = p.chosen().latency().totalMillis();
                                split[0] = p.chosen().latency();
                                yield p.chosen().site();
                            }
                            yield j.holder();
                        }
                    }
                };
                int ahead = inFlight.get(site).getAndIncrement();
                String id = run + "-" + j.index();
                long[] fetchMillis = {0};
                CompletableFuture<TaskMessage> task = site.equals(j.holder())
                        ? CompletableFuture.completedFuture(new TaskMessage(id, MODEL, null, "file:" + j.file(), deadline(), null))
                        : move(j, site, run).thenApply(f -> {
                            fetchMillis[0] = f.millis();
                            if (policy.equals("planner")) {
                                // fetching over the holder's link and writing it: what moving this job's input took,
                                // reported for the job as the inference provider does (the planner knows whether it
                                // sent the input behind others on the link)
                                synchronized (plannerLock) {
                                    planner.observe(new Observation.InputMoved(id, site, Math.max(1, f.millis()),
                                            System.currentTimeMillis()));
                                }
                            }
                            return new TaskMessage(id, MODEL, null, f.inputRef(), deadline(), null);
                        });
                long[] sent = {0};
                task.thenCompose(m -> {
                    sent[0] = System.currentTimeMillis();
                    return cloud.dispatcher().send(site, m);
                }).whenComplete((r, e) -> {
                    long t1 = System.currentTimeMillis();
                    inFlight.get(site).decrementAndGet();
                    long transfer = sent[0] - t0;
                    long queue = e == null ? Math.round(r.queuedMs()) : 0;
                    long compute = e == null ? Math.round(r.inputMs() + r.inferenceMs()) : 0;
                    long overhead = Math.max(0, t1 - sent[0] - queue - compute);
                    int batch = e == null ? Math.max(1, r.batchSize()) : 1;
                    if (e == null && policy.equals("planner")) {
                        // as the inference provider reports it: the site's time per task (its batch's input
                        // reading and ONNX run shared by the batch) and the round trip beyond queue and compute
                        synchronized (plannerLock) {
                            planner.observe(new Observation.JobCompleted(id, site, MODEL,
                                    Math.max(1, Math.round((r.inputMs() + r.inferenceMs()) / batch)), t1, overhead,
                                    queue));
                        }
                    }
                    outcomes.add(new Outcome(e == null ? site : site + " (failed)", j.holder(), t1 - t0, predicted[0],
                            split[0], transfer, fetchMillis[0], overhead, queue, compute, batch, ahead, j.index(), t0 - start));
                    done.countDown();
                });
            }, Math.max(0, start + j.atMillis() - System.currentTimeMillis()), TimeUnit.MILLISECONDS);
        }
        if (!done.await(15, TimeUnit.MINUTES)) {
            System.out.println(policy + ": " + done.getCount() + " jobs not finished after 15 min");
        }
        clock.shutdown();
        forget(run);
        System.out.printf(Locale.ROOT, "  %s: p50 %d ms, p95 %d ms (load average %s)%n", policy, p(outcomes, 0.5),
                p(outcomes, 0.95), load());
        return new ArrayList<>(outcomes);
    }

    /**
     * A planner in service has history: it is told the warm-up's tasks as if it had placed them (pinned to their
     * site), with their compute, overhead and measured transfers, before the stream starts.
     */
    private void seed(OnlinePlanner planner, String run) {
        long now = System.currentTimeMillis() - 60_000;
        for (Warm w : warm) {
            String id = run + "-warm-" + (now++);
            planner.update(inventory(), now);
            planner.place(PlacementRequest.inference(id, MODEL, Demand.wholeGpus(0), List.of(new DataReference(
                    w.job().holder(), "/" + w.job().file(), w.job().bytes())), sloMillis).withGpuMemoryAndSite(0, w.site()), now);
            if (w.fetched() != null) {
                planner.observe(new Observation.TransferMeasured(w.job().holder(), w.site(),
                        w.fetched().bytes() * 1000.0 / Math.max(1, w.fetched().millis()), now));
            }
            planner.observe(new Observation.JobCompleted(id, w.site(), MODEL, w.computePerTask(), now, w.overhead(),
                    w.queued()));
        }
    }

    /** The planner's view: each gateway from its heartbeat, with the tasks this driver has in flight there. */
    private Inventory inventory() {
        List<Cluster> clusters = new ArrayList<>();
        Map<String, SiteStatus> status = new LinkedHashMap<>();
        for (Fleet.Device d : cloud.fleet().devices()) {
            clusters.add(FleetSites.cluster(d.deviceId(), d.heartbeat())); // dc-pool's heartbeat says datacenter
            SiteStatus s = FleetSites.status(d, inFlight.getOrDefault(d.deviceId(), new AtomicInteger()).get());
            status.put(d.deviceId(), new SiteStatus(s.online(), s.queuedTasks(), Set.of(),
                    Set.of(PlacementRequest.Kind.INFERENCE)));
        }
        return new Inventory(clusters, links(), Map.of("gw-fast", "gw-fast", "gw-slow", "gw-slow", DC, DC), status);
    }

    /**
     * Moves the input as the inference provider has the transfer provider move it: its bytes fetched over the
     * holder's link (after the inputs before it on that link), not parsed, written to {@code
     * continuum-inputs/<batch>/<file name>} in {@code site}'s data directory (the gateway reads only inside it), to be
     * named by the task's {@code input_ref}. Until 2026-11-29 the driver parsed the document and sent the floats
     * inline over MQTT, where the site decoded them again: two more passes over ~300 kB on the shared CPU per job.
     */
    private CompletableFuture<Fetched> move(Job j, String site, String batch) {
        Gateway holder = gateways.stream().filter(g -> g.name().equals(j.holder())).findFirst().orElseThrow();
        java.util.concurrent.ExecutorService link = fetchers.computeIfAbsent(holder.name(),
                h -> Executors.newSingleThreadExecutor());
        String landing = LANDING + "/" + batch + "/" + Path.of(j.file()).getFileName();
        Path target = dataDir(site).resolve(landing);
        return CompletableFuture.supplyAsync(() -> {
            long t = System.currentTimeMillis();
            try {
                byte[] body = http.send(HttpRequest.newBuilder(URI.create("http://" + holder.dataHost() + ":8000/"
                        + j.file())).build(), HttpResponse.BodyHandlers.ofByteArray()).body();
                Files.createDirectories(target.getParent());
                Files.write(target, body);
                return new Fetched("file:" + landing, body.length, System.currentTimeMillis() - t);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }, link);
    }

    /** Where moved inputs land below a site's data directory, as {@code InputMover} lands them. */
    private static final String LANDING = "continuum-inputs";

    /** A site's data directory: what its gateway's {@code input_ref} is relative to (its state dir's {@code data}). */
    private Path dataDir(String site) {
        return work.resolve(site).resolve("data");
    }

    /** Deletes the inputs a batch moved, at every site, once its tasks have ended (so runs do not fill the disk). */
    private void forget(String batch) {
        for (Gateway g : gateways) {
            Path dir = dataDir(g.name()).resolve(LANDING).resolve(batch);
            if (Files.isDirectory(dir)) {
                try (var files = Files.list(dir)) {
                    for (Path f : files.toList()) {
                        Files.deleteIfExists(f);
                    }
                    Files.deleteIfExists(dir);
                } catch (IOException e) {
                    System.out.println("could not delete " + dir + ": " + e.getMessage());
                }
            }
        }
    }

    private static String deadline() {
        return Instant.now().plusSeconds(600).toString();
    }

    private static long p(List<Outcome> o, double q) {
        long[] l = o.stream().mapToLong(Outcome::latencyMillis).sorted().toArray();
        return l.length == 0 ? 0 : l[(int) Math.min(l.length - 1, Math.ceil(q * l.length) - 1)];
    }

    private static long median(List<Outcome> o, java.util.function.ToLongFunction<Outcome> f) {
        return median(o.stream().mapToLong(f).toArray());
    }

    private static double medianSignedError(List<Outcome> o) {
        double[] e = o.stream().filter(x -> x.predictedMillis() > 0).mapToDouble(x ->
                (x.predictedMillis() - x.latencyMillis()) / (double) Math.max(1, x.latencyMillis())).sorted().toArray();
        return e.length == 0 ? Double.NaN : e[e.length / 2];
    }

    /** Every job of every policy, one line each, for a closer look (CONTINUUM_BENCH_JOBS_CSV=file). */
    private static void writeCsv(Path file, Map<String, List<Outcome>> results) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add("policy,site,holder,latency,predicted,p_transfer,p_queue,p_compute,transfer,fetch,overhead,queue,compute,batch,ahead,job,placed_at");
        results.forEach((policy, os) -> os.forEach(o -> lines.add(String.join(",", policy, o.site(), o.holder(),
                String.valueOf(o.latencyMillis()), String.valueOf(o.predictedMillis()),
                String.valueOf(o.predicted().transferMillis()), String.valueOf(o.predicted().queueMillis()),
                String.valueOf(o.predicted().computeMillis()), String.valueOf(o.transfer()), String.valueOf(o.fetch()),
                String.valueOf(o.overhead()),
                String.valueOf(o.queue()), String.valueOf(o.compute()), String.valueOf(o.batch()),
                String.valueOf(o.ahead()), String.valueOf(o.job()), String.valueOf(o.placedAt())))));
        Files.write(file, lines);
    }

    private static long median(long[] v) {
        java.util.Arrays.sort(v);
        return v.length == 0 ? 0 : v[v.length / 2];
    }

    private static double medianError(List<Outcome> o) {
        double[] e = o.stream().filter(x -> x.predictedMillis() > 0).mapToDouble(x ->
                Math.abs(x.predictedMillis() - x.latencyMillis()) / (double) Math.max(1, x.latencyMillis())).sorted().toArray();
        return e.length == 0 ? Double.NaN : e[e.length / 2];
    }

    private static String perSite(List<Outcome> o) {
        Map<String, Integer> n = new java.util.TreeMap<>();
        o.forEach(x -> n.merge(x.site(), 1, Integer::sum));
        return n.toString();
    }

    private static String load() {
        try {
            String[] parts = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return parts[0] + " " + parts[1] + " " + parts[2];
        } catch (IOException e) {
            return "unknown";
        }
    }

    private void stop() {
        fetchers.values().forEach(java.util.concurrent.ExecutorService::shutdownNow);
        for (Process p : children) {
            p.destroy();
        }
        for (Process p : children) {
            try {
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
