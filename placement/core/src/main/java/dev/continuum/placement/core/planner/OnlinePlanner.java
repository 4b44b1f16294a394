package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.planner.PlacementRequest.Kind;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.state.ActiveJob;

import dev.continuum.placement.core.forecast.ArrivalForecaster;
import dev.continuum.placement.core.forecast.Forecast;
import dev.continuum.placement.core.forecast.ForecastConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The planner: inference by predicted latency ({@link InferencePlacer}, {@link CostModel}), training and other
 * GPU jobs by the simulator's own policy classes ({@link TrainingQueue}), both fed the same inventory.
 */
public final class OnlinePlanner implements Planner {
    private final PlannerConfig config;
    private final boolean lending;
    private final CostModel costs;
    private final InferencePlacer inference;
    /** Training clusters by site name, in inventory order (the order ties are broken in). */
    private final Map<String, TrainingQueue> training = new LinkedHashMap<>();
    /** Inference tasks placed per site since its last reported status: the heartbeat has not counted them yet. */
    private final Map<String, Integer> pending = new HashMap<>();
    /** Inference jobs placed and not yet reported complete, by site: re-placed if their site goes away. */
    private final Map<String, LinkedHashMap<String, PlacementRequest>> inFlight = new HashMap<>();
    /** Gateways of inference jobs taken back after a restart that have not reported yet: not stranded before they do. */
    private final java.util.Set<String> awaitedAfterRestore = new java.util.HashSet<>();
    private Inventory inventory = Inventory.empty();
    /** Lookups into {@link #inventory}, rebuilt at each update. */
    private InventoryIndex index = InventoryIndex.of(inventory);
    /** Inference arrivals per (model, site), forecast ahead: what scaling decisions are to be made from. */
    private final ArrivalForecaster arrivals = new ArrivalForecaster(ForecastConfig.defaults());

    public OnlinePlanner(PlannerConfig config) {
        this.config = config;
        this.lending = Policies.parse(config.policy()).lending();
        this.costs = new CostModel(config);
        this.inference = new InferencePlacer(config, costs);
    }

    public PlannerConfig config() {
        return config;
    }

    /**
     * A training cluster as a policy above the clusters sees it ({@link dev.continuum.placement.core.policy.MovePolicy}):
     * its GPUs, those free now (held ones — running, starting, awaiting a carried checkpoint — are not), and the jobs
     * waiting in its queue.
     */
    public record TrainingPool(String site, int totalGpus, int freeGpus, java.util.Set<String> waiting) {
        public TrainingPool {
            waiting = java.util.Set.copyOf(waiting);
        }
    }

    /** Every training cluster's {@link TrainingPool}, in inventory order. */
    public List<TrainingPool> trainingPools() {
        return training.values().stream().map(t -> new TrainingPool(t.name(), t.totalGpus(), t.freeGpus(),
                t.waitingIds())).toList();
    }

    public Inventory inventory() {
        return inventory;
    }

    @Override
    public List<Forecast> forecasts() {
        return arrivals.forecasts();
    }

    @Override
    public List<PlacementDecision> update(Inventory next, long nowMillis) {
        arrivals.advanceTo(nowMillis);
        InventoryIndex nextIndex = index.next(next);
        // only sites with tasks pending can lose them: visiting those, not all 1,458 sites, keeps a heartbeat cheap
        pending.keySet().removeIf(site -> {
            SiteStatus before = inventory.status().get(site);
            if (before != null && before == next.status().get(site)) {
                return false; // the same report: a heartbeat changes one site's status and keeps the others'
            }
            Cluster c = nextIndex.cluster(site);
            return c != null && !next.statusOf(c).equals(before);
        });
        inventory = next;
        index = nextIndex;
        awaitedAfterRestore.removeIf(site -> nextIndex.cluster(site) != null);
        inference.update(next, nextIndex);
        List<PlacementDecision> out = updateTraining(next, nowMillis / 1000.0);
        out.addAll(replaceStranded(next, nowMillis));
        return out;
    }

    /**
     * Inference jobs whose site went offline or left the inventory before they finished are placed again; the
     * new decision's first reason says why. Sites are visited in name order and jobs in arrival order, so a
     * replay re-places them identically.
     */
    private List<PlacementDecision> replaceStranded(Inventory next, long nowMillis) {
        List<String> gone = new ArrayList<>();
        for (String site : inFlight.keySet()) {
            Cluster c = index.cluster(site);
            if (c == null && awaitedAfterRestore.contains(site)) {
                continue; // its gateway has not reported since the restart; its retained status is on the way
            }
            if (c == null || !next.statusOf(c).online() || !next.statusOf(c).serves(Kind.INFERENCE)) {
                gone.add(site);
            }
        }
        gone.sort(Comparator.naturalOrder());
        List<PlacementDecision> out = new ArrayList<>();
        for (String site : gone) {
            String why = index.cluster(site) == null ? "left the inventory" : "went offline";
            for (PlacementRequest r : inFlight.remove(site).values()) {
                PlacementDecision d = placeInference(r, nowMillis);
                if (d instanceof PlacementDecision.Placed p) {
                    List<String> reasons = new ArrayList<>();
                    reasons.add("placed again: " + site + " " + why + " before the job finished");
                    reasons.addAll(p.reasons());
                    d = new PlacementDecision.Placed(p.requestId(), p.chosen(), p.predictedStartMillis(),
                            p.predictedFinishMillis(), reasons, p.alternatives());
                }
                out.add(d);
            }
        }
        return out;
    }

    private PlacementDecision placeInference(PlacementRequest request, long nowMillis) {
        PlacementDecision d = inference.place(request, nowMillis, pending);
        if (d instanceof PlacementDecision.Placed p) {
            pending.merge(p.chosen().site(), 1, Integer::sum);
            inFlight.computeIfAbsent(p.chosen().site(), s -> new LinkedHashMap<>()).put(request.id(), request);
        }
        return d;
    }

    /** Keeps a training cluster's queue while its shape is unchanged; otherwise its jobs start over on the new one. */
    private List<PlacementDecision> updateTraining(Inventory next, double now) {
        List<PlacementDecision> out = new ArrayList<>();
        Map<String, TrainingQueue> old = new LinkedHashMap<>(training);
        training.clear();
        for (Cluster c : next.clusters()) {
            if (!next.statusOf(c).serves(Kind.TRAINING)) {
                continue;
            }
            TrainingQueue before = old.remove(c.site().name());
            if (before != null && before.cluster().equals(c)) {
                training.put(c.site().name(), before);
                continue;
            }
            TrainingQueue site = new TrainingQueue(c, config);
            training.put(c.site().name(), site);
            if (before != null) {
                out.addAll(carryOver(before, site, now));
            }
        }
        for (TrainingQueue gone : old.values()) {
            for (ActiveJob a : gone.jobsInOrder()) {
                out.add(new PlacementDecision.Unplaceable(a.job().id(),
                        Map.of(gone.name(), "left the inventory while the job was there; submit it again")));
            }
        }
        return out;
    }

    private static List<PlacementDecision> carryOver(TrainingQueue before, TrainingQueue after, double now) {
        List<PlacementDecision> out = new ArrayList<>();
        List<Job> jobs = new ArrayList<>();
        for (ActiveJob a : before.jobsInOrder()) {
            if (a.running()) {
                out.add(new PlacementDecision.Preempted(a.job().id(), before.name(),
                        "the cluster's nodes changed; every job there is placed again"));
            }
            jobs.add(a.job());
        }
        for (Job j : jobs) {
            after.admit(j, now);
        }
        out.addAll(after.round(now));
        return out;
    }

    @Override
    public PlacementResult place(PlacementRequest request, long nowMillis) {
        RequestValidator.validate(request, index, nowMillis, lending);
        if (request.kind() == Kind.INFERENCE) {
            PlacementDecision decision = placeInference(request, nowMillis);
            String site = switch (decision) {
                case PlacementDecision.Placed p -> p.chosen().site();
                case PlacementDecision.Queued q -> q.site();
                default -> request.site();
            };
            arrivals.arrival(request.model(), site, nowMillis);
            return PlacementResult.of(decision);
        }
        return placeTraining(request, nowMillis);
    }

    private PlacementResult placeTraining(PlacementRequest request, long nowMillis) {
        Job job = toJob(request, nowMillis);
        Map<String, String> ruledOut = new LinkedHashMap<>();
        List<TrainingQueue> eligible = new ArrayList<>();
        for (TrainingQueue site : training.values()) {
            String why = !inventory.statusOf(site.cluster()).online() ? "offline"
                    : !job.partition().isEmpty() && !site.cluster().partitionsByName().containsKey(job.partition())
                    ? "has no partition " + job.partition() : site.neverFits(job);
            if (why == null) {
                eligible.add(site);
            } else {
                ruledOut.put(site.name(), why);
            }
        }
        if (eligible.isEmpty()) {
            if (ruledOut.isEmpty()) {
                ruledOut.put("inventory", "no site serves training");
            }
            return PlacementResult.of(new PlacementDecision.Unplaceable(request.id(), ruledOut));
        }
        // most free GPUs first, then the shorter queue; the inventory's order breaks ties
        TrainingQueue chosen = eligible.stream().sorted(Comparator.comparingInt(TrainingQueue::freeGpus).reversed()
                .thenComparingInt(TrainingQueue::waiting)).findFirst().orElseThrow();
        List<PlacementDecision> decisions = new ArrayList<>(chosen.arrive(job, nowMillis / 1000.0));
        if (decisions.stream().noneMatch(d -> d.requestId().equals(request.id()))) {
            decisions.add(chosen.queued(job));
        }
        return new PlacementResult(request.id(), decisions);
    }

    private Job toJob(PlacementRequest r, long nowMillis) {
        long arrival = nowMillis / 1000;
        long duration = r.estimatedSeconds() > 0 ? r.estimatedSeconds() : config.assumedTrainingSeconds();
        long deadline = r.deadlineEpochSeconds() > 0 ? Math.max(1, r.deadlineEpochSeconds() - arrival) : 0;
        int min = r.minGpus() > 0 ? r.minGpus() : r.demand().gpus();
        int max = r.maxGpus() > 0 ? Math.max(r.maxGpus(), min) : min;
        return new Job(r.id(), r.tenant(), r.partition(), arrival, r.demand(), duration, r.priority(),
                r.preemptible(), r.preemptible(), min, max, deadline);
    }

    @Override
    public List<PlacementDecision> restore(List<Restored> jobs, long nowMillis) {
        double now = nowMillis / 1000.0;
        List<PlacementDecision> out = new ArrayList<>();
        java.util.Set<TrainingQueue> touched = new java.util.LinkedHashSet<>();
        List<Restored> ordered = jobs.stream().sorted(Comparator.comparingLong(Restored::arrivalMillis)).toList();
        for (Restored r : ordered) {
            String site = siteOf(r.last());
            if (r.request().kind() == Kind.INFERENCE) {
                if (r.last() instanceof PlacementDecision.Placed) {
                    // still running there as far as anyone knows; the next heartbeat counts it in the queue
                    if (index.cluster(site) == null) {
                        awaitedAfterRestore.add(site);
                    }
                    pending.merge(site, 1, Integer::sum);
                    inFlight.computeIfAbsent(site, s -> new LinkedHashMap<>()).put(r.request().id(), r.request());
                }
                continue;
            }
            TrainingQueue ts = training.get(site);
            if (ts == null) {
                out.add(new PlacementDecision.Unplaceable(r.request().id(), Map.of(site == null ? "inventory" : site,
                        "not in the inventory when the planner restarted; submit it again")));
                continue;
            }
            Job job = toJob(r.request(), r.arrivalMillis());
            String target = switch (r.last()) {
                case PlacementDecision.Placed p -> p.chosen().target();
                case PlacementDecision.Moved m -> m.to().target();
                default -> null;
            };
            if (target == null) {
                ts.admit(job, now);
            } else {
                ts.resume(job, target, now); // left waiting if its GPUs are not there any more
            }
            touched.add(ts);
        }
        for (TrainingQueue ts : touched) {
            out.addAll(ts.round(now));
        }
        return out;
    }

    private static String siteOf(PlacementDecision d) {
        return switch (d) {
            case PlacementDecision.Placed p -> p.chosen().site();
            case PlacementDecision.Queued q -> q.site();
            case PlacementDecision.Preempted p -> p.site();
            case PlacementDecision.Moved m -> m.to().site();
            case PlacementDecision.Unplaceable u -> null;
        };
    }

    @Override
    public List<PlacementDecision> observe(Observation observation) {
        return switch (observation) {
            case Observation.JobCompleted c -> completed(c);
            case Observation.TransferMeasured t -> {
                measured(t);
                yield List.of();
            }
            case Observation.InputMoved m -> {
                LinkedHashMap<String, PlacementRequest> there = inFlight.get(m.site());
                PlacementRequest request = there == null ? null : there.get(m.requestId());
                if (request != null) {
                    inputMoveMeasured(request, m.site(), m.transferMillis(), m.atMillis());
                }
                yield List.of();
            }
            case Observation.Tick t -> {
                arrivals.advanceTo(t.atMillis());
                List<PlacementDecision> out = new ArrayList<>();
                for (TrainingQueue site : training.values()) {
                    out.addAll(site.round(t.atMillis() / 1000.0));
                }
                yield out;
            }
        };
    }

    private List<PlacementDecision> completed(Observation.JobCompleted c) {
        for (TrainingQueue site : training.values()) {
            if (site.holds(c.requestId())) {
                return site.complete(c.requestId(), c.atMillis() / 1000.0);
            }
        }
        pending.computeIfPresent(c.site(), (site, n) -> n > 1 ? n - 1 : null);
        LinkedHashMap<String, PlacementRequest> there = inFlight.get(c.site());
        PlacementRequest request = there == null ? null : there.remove(c.requestId());
        if (there != null && request != null && there.isEmpty()) {
            inFlight.remove(c.site());
        }
        InferencePlacer.ModelledQueue modelledQueue = inference.completed(c.requestId(), c.site(), c.atMillis());
        Cluster cluster = index.cluster(c.site());
        if (cluster != null) {
            if (c.queuedMillis() != Observation.JobCompleted.NOT_MEASURED && modelledQueue != null && request != null) {
                costs.observeQueue(c.site(), modelledQueue.tasksAhead(), c.queuedMillis(), modelledQueue.millis());
            }
            if (c.computeMillis() != Observation.JobCompleted.NOT_MEASURED) {
                costs.observeCompute(c.model(), c.site(), gpuModelOf(cluster), c.computeMillis());
            }
            if (c.overheadMillis() != Observation.JobCompleted.NOT_MEASURED && request != null) {
                costs.observeOverhead(c.site(), inference.inputMoved(request, c.site()),
                        modelledQueue != null && modelledQueue.overheadApart(), c.overheadMillis());
            }
        }
        return List.of();
    }

    /**
     * What moving a job's input to {@code site} took, as its runner measured it: the input's bytes over that time,
     * less the link's latency (which a prediction adds apart), is one more rate for the link, learnt as a transfer
     * provider's report is. Only when every moved byte came from one site: a time covering several links says
     * nothing about any one of them. An input the planner sent behind others on the link teaches the link's rate
     * behind others, apart from an idle link's; and the inputs queued behind it on the link move by what it took
     * beyond (or short of) what the planner had reserved for it.
     */
    private void inputMoveMeasured(PlacementRequest request, String site, long transferMillis, long atMillis) {
        String from = null;
        long bytes = 0;
        for (DataReference d : request.data()) {
            String at = inventory.siteByEndpoint().get(d.endpointId());
            if (at == null || (!at.equals(site) && from != null && !from.equals(at))) {
                return; // an endpoint the planner cannot place, or inputs from more than one site
            }
            if (!at.equals(site)) {
                from = at;
                bytes += d.sizeBytes();
            }
        }
        if (from == null || bytes <= 0) {
            return;
        }
        Link configured = inference.link(from, site);
        double seconds = (transferMillis - (configured == null ? 0 : configured.latencyMs())) / 1000.0;
        if (seconds > 0) {
            costs.observeBandwidth(from, site, bytes / seconds, configured == null ? 0 : configured.bandwidthGbps() * 1e9 / 8,
                    inference.movedBehindOthers(request.id()));
            inference.inputMoveTook(request.id(), Math.round(seconds * 1000), atMillis);
        }
    }

    private void measured(Observation.TransferMeasured t) {
        String from = inventory.siteByEndpoint().get(t.fromEndpoint());
        String to = inventory.siteByEndpoint().get(t.toEndpoint());
        if (from == null || to == null || from.equals(to)) {
            return; // endpoints the planner cannot place on a link teach it nothing
        }
        Link configured = inference.link(from, to);
        costs.observeBandwidth(from, to, t.bytesPerSecond(), configured == null ? 0 : configured.bandwidthGbps() * 1e9 / 8);
    }

    /** The GPU model that names a site's compute costs: its first GPU node's, or "cpu". */
    static String gpuModelOf(Cluster c) {
        for (NodeSpec n : c.nodes()) {
            if (n.gpus() > 0) {
                return n.gpuModel();
            }
        }
        return "cpu";
    }
}
