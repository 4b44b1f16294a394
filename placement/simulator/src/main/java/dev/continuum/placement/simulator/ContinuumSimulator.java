package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Site;
import dev.continuum.placement.core.planner.DataReference;
import dev.continuum.placement.core.planner.Inventory;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.OnlinePlanner;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlannerConfig;
import dev.continuum.placement.core.planner.SiteStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Inference placement over an edge + datacenter topology, offline: sites with GPU workers and a FIFO queue, links
 * that carry one transfer at a time at their bandwidth, and inputs that sit at an endpoint. The same stream of jobs
 * is run under each {@link Choice}: {@code planner} is the online planner's own {@link OnlinePlanner} (fed the
 * sites' queues before each job and each job's compute time when it finishes, as the service is), the others are
 * the single-rule baselines. Deterministic: no clock, no randomness beyond the given service times.
 */
public final class ContinuumSimulator {

    /**
     * A site: {@code workers} GPUs each running one task at a time; true compute time per model in ms; and its
     * fixed overhead per job in ms (the task's trip to the site and its result's back: broker hops, decoding), which
     * a job spends on its way to the site's queue. {@code serviceFactors}: how a task's time varies there — each
     * task's compute is multiplied by one of them, drawn at random (a fixed seed per run, so a run repeats exactly);
     * empty = every task takes the compute time (a 0.1-CPU gateway finishes the same task at once or periods later:
     * on the emulated continuum 0.2–2.4× its mean).
     */
    public record SiteSpec(String name, Site.Kind kind, int workers, String gpuModel, Map<String, Double> computeMillis,
                           long overheadMillis, List<Double> serviceFactors) {
        public SiteSpec {
            serviceFactors = List.copyOf(serviceFactors);
        }

        /** Every task in the same time. */
        public SiteSpec(String name, Site.Kind kind, int workers, String gpuModel, Map<String, Double> computeMillis,
                        long overheadMillis) {
            this(name, kind, workers, gpuModel, computeMillis, overheadMillis, List.of());
        }

        /** No overhead: a job reaches the queue when its input does. */
        public SiteSpec(String name, Site.Kind kind, int workers, String gpuModel, Map<String, Double> computeMillis) {
            this(name, kind, workers, gpuModel, computeMillis, 0);
        }

        /** The same site, each task's compute varying by {@code factors}. */
        public SiteSpec varying(List<Double> factors) {
            return new SiteSpec(name, kind, workers, gpuModel, computeMillis, overheadMillis, factors);
        }
    }

    /** A job: at {@code atMillis}, run {@code model} on {@code bytes} held at {@code endpoint}, within {@code sloMillis}. */
    public record Arrival(String id, long atMillis, String model, String endpoint, long bytes, long sloMillis) {}

    /** Sites, links between them, and which site each endpoint is at. */
    public record Topology(List<SiteSpec> sites, List<Link> links, Map<String, String> siteByEndpoint) {}

    /** Where each policy sends a job. */
    public enum Choice { PLANNER, EDGE_ONLY, DATACENTER_ONLY, ROUND_ROBIN, LEAST_LOADED;
        public String label() {
            return name().toLowerCase().replace('_', '-');
        }
    }

    /** One job's outcome: where it ran, its end-to-end latency, and what the planner predicted (0 for the others). */
    public record Outcome(String id, String site, long latencyMillis, long predictedMillis, boolean metSlo) {}

    /** A policy's outcomes and their summary. */
    public record Result(Choice choice, List<Outcome> outcomes) {
        public long p(double q) {
            long[] l = outcomes.stream().mapToLong(Outcome::latencyMillis).sorted().toArray();
            return l.length == 0 ? 0 : l[(int) Math.min(l.length - 1, Math.ceil(q * l.length) - 1)];
        }

        public double sloAttainment() {
            return outcomes.isEmpty() ? 0 : outcomes.stream().filter(Outcome::metSlo).count() / (double) outcomes.size();
        }

        /** Median |predicted − actual| / actual over the planner's jobs (NaN for the baselines). */
        public double medianPredictionError() {
            return predictionError(0.5);
        }

        /** The {@code q} quantile of |predicted − actual| / actual over the planner's jobs (NaN for the baselines). */
        public double predictionError(double q) {
            double[] e = outcomes.stream().filter(o -> o.predictedMillis() > 0)
                    .mapToDouble(o -> Math.abs(o.predictedMillis() - o.latencyMillis()) / (double) Math.max(1, o.latencyMillis()))
                    .sorted().toArray();
            return e.length == 0 ? Double.NaN : e[(int) Math.min(e.length - 1, Math.floor(q * e.length))];
        }
    }

    private final Topology topology;
    private final PlannerConfig plannerConfig;

    public ContinuumSimulator(Topology topology) {
        this(topology, PlannerConfig.DEFAULT);
    }

    /** {@code plannerConfig}: the planner's, e.g. {@code choose-by} mean or p90. */
    public ContinuumSimulator(Topology topology, PlannerConfig plannerConfig) {
        this.topology = topology;
        this.plannerConfig = plannerConfig;
    }

    public Result run(Choice choice, List<Arrival> arrivals) {
        return new Run(choice).play(arrivals);
    }

    /** The planner's view of the topology: one cluster per site, every site serving inference with all its models. */
    public Inventory inventory(Map<String, Integer> queued) {
        List<Cluster> clusters = new ArrayList<>();
        Map<String, SiteStatus> status = new HashMap<>();
        for (SiteSpec s : topology.sites()) {
            clusters.add(new Cluster(new Site(s.name(), s.kind()),
                    List.of(new NodeSpec(s.name(), "", s.workers(), s.gpuModel(), 16_384, 8_000L * s.workers(), 32_768)),
                    List.of(), List.of(), dev.continuum.placement.core.model.Topology.DEFAULT));
            status.put(s.name(), SiteStatus.inference(queued.getOrDefault(s.name(), 0), Set.copyOf(s.computeMillis().keySet())));
        }
        return new Inventory(clusters, topology.links(), topology.siteByEndpoint(), status);
    }

    private final class Run {
        /** An input reaching its site ({@code arrived}) or a task finishing, in time order, ties in event order. */
        private record Event(long at, long seq, Task task, boolean arrived) {}

        private record Task(Arrival arrival, SiteState site, long predicted, long computeMillis) {}

        private final Choice choice;
        private final OnlinePlanner planner;
        private final Map<String, SiteState> sites = new LinkedHashMap<>();
        private final Map<String, Long> linkFreeAt = new HashMap<>();
        private final PriorityQueue<Event> events = new PriorityQueue<>(Comparator.comparingLong(Event::at)
                .thenComparingLong(Event::seq));
        private final List<Outcome> outcomes = new ArrayList<>();
        private long seq;
        private int roundRobin;
        /** Draws each task's service factor; the same seed for every choice, so each run repeats exactly. */
        private final java.util.Random variation = new java.util.Random(13);

        Run(Choice choice) {
            this.choice = choice;
            this.planner = choice == Choice.PLANNER ? new OnlinePlanner(plannerConfig) : null;
            for (SiteSpec s : topology.sites()) {
                sites.put(s.name(), new SiteState(s));
            }
        }

        Result play(List<Arrival> arrivals) {
            for (Arrival a : arrivals) {
                handleUntil(a.atMillis());
                long[] predicted = {0};
                SiteState site = sites.get(choose(a, predicted));
                long ready = a.atMillis() + transferMillis(a, site.spec.name(), a.atMillis()) + site.spec.overheadMillis();
                Task task = new Task(a, site, predicted[0], Math.round(site.spec.computeMillis().getOrDefault(a.model(), 1000.0)
                        * factor(site.spec)));
                site.inTransit++;
                events.add(new Event(ready, seq++, task, true));
            }
            handleUntil(Long.MAX_VALUE);
            return new Result(choice, outcomes);
        }

        private String choose(Arrival a, long[] predicted) {
            String home = topology.siteByEndpoint().get(a.endpoint());
            return switch (choice) {
                case EDGE_ONLY -> home;
                case DATACENTER_ONLY -> topology.sites().stream().filter(s -> s.kind() == Site.Kind.DATACENTER)
                        .findFirst().orElseThrow().name();
                case ROUND_ROBIN -> topology.sites().get(roundRobin++ % topology.sites().size()).name();
                case LEAST_LOADED -> topology.sites().stream()
                        .min(Comparator.comparingDouble(s -> sites.get(s.name()).load() / (double) s.workers()))
                        .orElseThrow().name();
                case PLANNER -> plan(a, home, predicted);
            };
        }

        private String plan(Arrival a, String home, long[] predicted) {
            Map<String, Integer> queued = new HashMap<>();
            sites.forEach((name, s) -> queued.put(name, s.load()));
            planner.update(inventory(queued), a.atMillis());
            PlacementRequest r = PlacementRequest.inference(a.id(), a.model(), Demand.wholeGpus(1),
                    List.of(new DataReference(a.endpoint(), "/" + a.id(), a.bytes())), a.sloMillis());
            PlacementDecision d = planner.place(r, a.atMillis()).decision();
            if (d instanceof PlacementDecision.Placed p) {
                predicted[0] = p.chosen().latency().totalMillis();
                return p.chosen().site();
            }
            return home;
        }

        private double factor(SiteSpec spec) {
            List<Double> f = spec.serviceFactors();
            return f.isEmpty() ? 1 : f.get(variation.nextInt(f.size()));
        }

        /** The input moves over the link from its site, one transfer at a time per link; 0 if already there. */
        private long transferMillis(Arrival a, String to, long now) {
            String from = topology.siteByEndpoint().get(a.endpoint());
            if (from.equals(to)) {
                return 0;
            }
            Link l = topology.links().stream().filter(k -> k.from().equals(from) && k.to().equals(to)
                    || k.from().equals(to) && k.to().equals(from)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no link " + from + " - " + to));
            // as the planner models it: an edge site has one uplink for every input leaving it
            boolean edge = topology.sites().stream().anyMatch(x -> x.name().equals(from) && x.kind() == Site.Kind.EDGE);
            String key = edge ? from + "|uplink" : from.compareTo(to) < 0 ? from + "|" + to : to + "|" + from;
            long start = Math.max(now, linkFreeAt.getOrDefault(key, 0L));
            long busy = Math.round(a.bytes() * 8 / (l.bandwidthGbps() * 1e9) * 1000);
            linkFreeAt.put(key, start + busy);
            return start + busy + Math.round(l.latencyMs()) - now;
        }

        private void handleUntil(long t) {
            while (!events.isEmpty() && events.peek().at() <= t) {
                Event e = events.poll();
                SiteState site = e.task().site();
                if (e.arrived()) {
                    site.inTransit--;
                    site.queue.add(e.task());
                } else {
                    site.busy--;
                    finished(e.task(), e.at());
                }
                site.startIfFree(e.at());
            }
        }

        private void finished(Task task, long t) {
            Arrival a = task.arrival();
            long latency = t - a.atMillis();
            outcomes.add(new Outcome(a.id(), task.site().spec.name(), latency, task.predicted(),
                    a.sloMillis() == 0 || latency <= a.sloMillis()));
            if (planner != null) {
                // as the service is told: the compute, and the overhead beyond the input's transfer, queue and compute
                planner.observe(new Observation.JobCompleted(a.id(), task.site().spec.name(), a.model(),
                        task.computeMillis(), t, task.site().spec.overheadMillis()));
            }
        }

        private final class SiteState {
            final SiteSpec spec;
            final ArrayDeque<Task> queue = new ArrayDeque<>();
            int busy;
            int inTransit;

            SiteState(SiteSpec spec) {
                this.spec = spec;
            }

            /** Tasks here or on their way: what a heartbeat counts, plus what was sent and has not arrived. */
            int load() {
                return busy + queue.size() + inTransit;
            }

            void startIfFree(long t) {
                while (busy < spec.workers() && !queue.isEmpty()) {
                    Task next = queue.poll();
                    busy++;
                    events.add(new Event(t + next.computeMillis(), seq++, next, false));
                }
            }
        }
    }
}
