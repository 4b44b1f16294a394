package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.planner.PlacementDecision.Candidate;
import dev.continuum.placement.core.planner.PlacementRequest.Kind;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Places an inference job on the site with the lowest predicted latency: moving its input there (0 when the data
 * is already there) + waiting behind the site's queue + running the model, the last two from the {@link CostModel}.
 * Ranked by the predicted mean ({@code choose-by=mean}) or by a learnt quantile of the latency ({@code p90}: the mean
 * times the p90 of actual / predicted at that site, {@link LatencySpread}), so a near-tie goes to the site whose jobs
 * vary less; the decision's predicted latency, start and finish stay the mean. Sites that cannot run it at all are
 * ruled out (offline, model not loaded, too few or wrong GPUs, no link to the data); sites over the SLO (by the same
 * score the sites are ranked by) or saturated are ruled out too unless no site is left, when the best is taken.
 */
final class InferencePlacer {
    /** Alternatives a decision lists beside the chosen site: the next best, so a decision stays readable. */
    static final int ALTERNATIVES = 5;

    /** A site that can run the job: its prediction and, if set, the soft reason that rules it out. */
    private record Option(Cluster cluster, int queued, int workers, CostModel.Estimate compute,
                          CostModel.Estimate overhead, CostModel.Estimate queueBeyond, long modelledQueueMillis,
                          LatencyEstimate latency, boolean moved, LatencySpread.Tail tail, long score,
                          String ruledOut) {
        String site() {
            return cluster.site().name();
        }
    }

    /** A placed job's mean prediction and case, until it completes: what its actual latency teaches the spread. */
    private record Predicted(String site, String model, boolean moved, boolean tasksAhead, long millis,
                             long placedAt) {
    }

    /** What moving the input to a site costs, or why it cannot be moved there. */
    private record Transfer(long millis, String unreachable) {
    }

    private final PlannerConfig config;
    private final CostModel costs;
    private Inventory inventory = Inventory.empty();
    private final PairMap<Link> links = new PairMap<>();
    /**
     * Until when (epoch ms) each link (from site, to site) is busy with the inputs of jobs this planner sent over it:
     * a link carries them one after another, so a job behind them waits. An edge site has one uplink, so the inputs
     * leaving it queue behind each other whatever their destination ({@link #EDGE_UPLINK}); a datacenter's links are
     * apart. Kept from the planner's own decisions, so a replay rebuilds it; forgotten once the time has passed.
     */
    private final PairMap<Long> linkBusyUntil = new PairMap<>();
    /** The destination key under which every input leaving an edge site queues. */
    static final String EDGE_UPLINK = "";
    private InventoryIndex index = InventoryIndex.of(Inventory.empty());
    /**
     * Per job placed and not yet reported complete: the queue wait its tasks ahead explained when it was placed,
     * before the site's learnt wait beyond it — what its measured wait is compared with at completion.
     */
    private final Map<String, ModelledQueue> modelledQueue = new java.util.HashMap<>();

    /**
     * The queue wait the model explained for a job when it was placed, whether it found tasks ahead, and whether its
     * overhead is learnt apart for that ({@link #overheadApart}).
     */
    record ModelledQueue(long millis, boolean tasksAhead, boolean overheadApart) {
    }
    /**
     * Per job placed and not yet reported complete whose input the planner sent over a link: which link queue, how
     * long it reserved the link for, and whether the input went behind others (the link was busy with this planner's
     * inputs when the job was placed) — what the job's measured move corrects and teaches.
     */
    private final Map<String, LinkUse> linkUses = new java.util.HashMap<>();
    /** Per link queue, how far the moves reported so far have moved it in all (ms, either way). */
    private final PairMap<Long> linkShift = new PairMap<>();

    /**
     * A job's inputs on one link queue: reserved for {@code reservedMillis} up to {@code reservedEnd}, behind other
     * inputs or not; {@code shiftBefore} is the queue's {@link #linkShift} when it was reserved (what moved it since
     * moved this job's inputs too).
     */
    private record LinkUse(String from, String queueKey, long reservedEnd, long reservedMillis, boolean behindOthers,
                           long shiftBefore) {
    }

    /** The quantile sites are ranked by, or NaN: by the mean ({@link PlannerConfig#chooseBy()}). */
    private final double chooseByQuantile;
    private final LatencySpread spread;
    private final Map<String, Predicted> predicted = new java.util.HashMap<>();

    InferencePlacer(PlannerConfig config, CostModel costs) {
        this.config = config;
        this.costs = costs;
        this.chooseByQuantile = PlannerConfig.chooseByQuantile(config.chooseBy());
        // under mean (the default) nothing is learnt into it: no job's prediction is kept for it (place)
        this.spread = new LatencySpread(Double.isNaN(chooseByQuantile) ? 0.9 : chooseByQuantile);
    }

    private boolean byTail() {
        return !Double.isNaN(chooseByQuantile);
    }

    void update(Inventory newInventory, InventoryIndex newIndex) {
        boolean sameLinks = newInventory.links().equals(inventory.links());
        inventory = newInventory;
        index = newIndex;
        if (sameLinks) {
            return; // a heartbeat: the links did not change, and rebuilding 400 entries was half its cost
        }
        links.clear();
        for (Link l : newInventory.links()) {
            links.putIfAbsent(l.from(), l.to(), l);
            links.putIfAbsent(l.to(), l.from(), l);
        }
    }

    /** The configured link between two sites, or null. */
    Link link(String a, String b) {
        return links.get(a, b);
    }

    PlacementDecision place(PlacementRequest request, long now, Map<String, Integer> pending) {
        Map<String, String> hard = new LinkedHashMap<>();
        List<Option> options = new ArrayList<>();
        List<String> noLink = new ArrayList<>(request.data().size()); // the same words for every site: made once
        for (DataReference d : request.data()) {
            noLink.add("no link to " + inventory.siteByEndpoint().get(d.endpointId()) + ", where " + d.endpointId()
                    + " holds the input");
        }
        for (Cluster c : inventory.clusters()) {
            SiteStatus status = inventory.statusOf(c);
            if (status.serves(Kind.INFERENCE)) {
                String why = hardRuleOut(request, c, status);
                Transfer t = why == null ? transfer(request, c.site().name(), now, null, noLink) : null;
                if (why == null && t.unreachable() != null) {
                    why = t.unreachable();
                }
                if (why != null) {
                    hard.put(c.site().name(), why);
                } else {
                    options.add(score(request, c, status, t, pending.getOrDefault(c.site().name(), 0)));
                }
            }
        }
        if (options.isEmpty()) {
            if (hard.isEmpty()) {
                hard.put("inventory", "no site serves inference");
            }
            return new PlacementDecision.Unplaceable(request.id(), hard);
        }
        options.sort(Comparator.comparingLong(Option::score).thenComparingLong((Option o) -> o.latency().totalMillis())
                .thenComparing(Option::site));
        Option chosen = options.stream().filter(o -> o.ruledOut() == null).findFirst().orElse(options.getFirst());
        PlacementDecision d = placed(request, now, chosen, options, hard);
        reserveLinks(request, chosen.site(), now);
        modelledQueue.put(request.id(), new ModelledQueue(chosen.modelledQueueMillis(), chosen.queued() > 0,
                overheadApart(chosen.cluster(), chosen.queued())));
        if (byTail() && costs.computeRunsOn(request.model(), chosen.site()) >= LatencySpread.MIN_SAMPLES) {
            // a prediction before the site's own compute settled says how wrong the prior was, not how the site's
            // jobs vary: learnt from, the simulator's first jobs at a gateway (4–6× the prediction) kept its p90
            // above every other site's, so it got no job that could have corrected it
            predicted.put(request.id(), new Predicted(chosen.site(), request.model(), chosen.moved(),
                    chosen.queued() > 0, chosen.latency().totalMillis(), now));
        } else {
            predicted.remove(request.id());
        }
        return d;
    }

    /**
     * The job completed at {@code atMillis}: its latency since it was placed, against the mean predicted then,
     * teaches its site's spread. Returns the queue wait the tasks ahead explained when it was placed (forgotten now),
     * or null if not placed here.
     */
    ModelledQueue completed(String requestId, String site, long atMillis) {
        linkUses.remove(requestId);
        Predicted p = predicted.remove(requestId);
        if (p != null && p.site().equals(site)) {
            spread.observe(p.site(), p.model(), p.moved(), p.tasksAhead(), p.millis(), atMillis - p.placedAt());
        }
        return modelledQueue.remove(requestId);
    }

    /** Whether the job's input was sent behind other inputs on its link, as the planner saw it when placing it. */
    boolean movedBehindOthers(String requestId) {
        LinkUse use = linkUses.get(requestId);
        return use != null && use.behindOthers();
    }

    /**
     * The job's input took {@code millis} on its link (latency excluded), reported at {@code atMillis}: it was through
     * when it started plus that, and by the report at the latest — not when its reservation said. The inputs reserved
     * behind it start that much later (or sooner), so the link's queue moves by the difference. Without it the queue
     * was open loop: on a loaded machine, fetches 3–4× slower than learnt backed gw-slow's uplink up by 1–3 s while
     * the planner, its reservations run out, predicted an idle link.
     */
    void inputMoveTook(String requestId, long millis, long atMillis) {
        LinkUse use = linkUses.get(requestId);
        Long until = use == null ? null : linkBusyUntil.get(use.from(), use.queueKey());
        if (until == null) {
            return;
        }
        long shift = shift(use.from(), use.queueKey());
        long end = use.reservedEnd() + shift - use.shiftBefore(); // where the moves reported before put it
        long delta = Math.min(atMillis, end - use.reservedMillis() + millis) - end;
        linkBusyUntil.put(use.from(), use.queueKey(), until + delta);
        linkShift.put(use.from(), use.queueKey(), shift + delta);
        // as reserved now, so a repeated report moves nothing
        linkUses.put(requestId, new LinkUse(use.from(), use.queueKey(), end + delta, millis, use.behindOthers(),
                shift + delta));
    }

    private long shift(String from, String queueKey) {
        Long s = linkShift.get(from, queueKey);
        return s == null ? 0 : s;
    }

    /** The chosen site's inputs occupy their links from when the inputs already on them are through. */
    private void reserveLinks(PlacementRequest request, String site, long now) {
        for (DataReference d : request.data()) {
            String from = inventory.siteByEndpoint().get(d.endpointId());
            if (from == null || from.equals(site)) {
                continue;
            }
            boolean behindOthers = busyUntil(from, site) > now;
            double bytesPerSecond = bytesPerSecond(from, site, behindOthers);
            if (bytesPerSecond > 0) {
                long start = Math.max(now, busyUntil(from, site));
                long millis = Math.round(d.sizeBytes() * 1000.0 / bytesPerSecond);
                String key = queueKey(from, site);
                linkBusyUntil.put(from, key, start + millis);
                LinkUse before = linkUses.get(request.id());
                // a job's inputs from one site share its queue; from several, its measured move says nothing of one
                linkUses.put(request.id(), before == null
                        ? new LinkUse(from, key, start + millis, millis, behindOthers, shift(from, key))
                        : new LinkUse(from, before.queueKey(), start + millis, before.reservedMillis() + millis,
                        before.behindOthers() || behindOthers, before.shiftBefore()));
            }
        }
    }

    private long busyUntil(String from, String to) {
        Long until = linkBusyUntil.get(from, queueKey(from, to));
        return until == null ? 0 : until;
    }

    /** Inputs leaving an edge site share its uplink; a datacenter's links to different sites are apart. */
    private String queueKey(String from, String to) {
        Cluster c = index.cluster(from);
        return c != null && c.site().kind() == dev.continuum.placement.core.model.Site.Kind.EDGE ? EDGE_UPLINK : to;
    }

    /**
     * The learnt bandwidth between two sites for an input on an idle link or behind others, else the configured
     * link's, else 0 (no way to move data).
     */
    private double bytesPerSecond(String from, String to, boolean behindOthers) {
        CostModel.Estimate learnt = costs.bandwidth(from, to, behindOthers);
        Link l = link(from, to);
        return learnt != null ? learnt.value() : l != null ? l.bandwidthGbps() * 1e9 / 8 : 0;
    }

    private PlacementDecision placed(PlacementRequest request, long now, Option chosen, List<Option> options,
                                     Map<String, String> hard) {
        Candidate c = candidate(request, chosen, now);
        long slo = request.latencySloMillis();
        List<String> reasons = new ArrayList<>();
        // the words of a mean choice while no site has a spread learnt: the ranking was the mean's
        boolean tails = options.stream().anyMatch(o -> o.tail().samples() > 0);
        String fastest = tails
                ? c.site() + ": predicted " + Words.millis(c.latency().totalMillis()) + ", " + config.chooseBy() + " "
                + Words.millis(c.score()) + ", the lowest " + config.chooseBy() + " of "
                + Words.plural(options.size(), "site") + " that can run " + request.model()
                : c.site() + ": predicted " + Words.millis(c.score()) + ", the fastest of "
                + Words.plural(options.size(), "site") + " that can run " + request.model();
        if (chosen.ruledOut() == null) {
            reasons.add(fastest + (slo > 0 ? ", within the " + Words.millis(slo) + " SLO" : ""));
        } else if (slo > 0 && c.score() > slo) {
            reasons.add("SLO cannot be met: no site is predicted within " + Words.millis(slo)
                    + (tails ? " at its " + config.chooseBy() : "") + "; " + fastest);
        } else {
            reasons.add("every site that can run it is saturated; " + fastest);
        }
        reasons.add(c.site() + ": " + c.explanation());
        List<Candidate> alternatives = new ArrayList<>();
        for (Option o : options) {
            if (o != chosen && alternatives.size() < ALTERNATIVES) {
                alternatives.add(candidate(request, o, now));
                if (o.ruledOut() != null && chosen.ruledOut() == null) {
                    reasons.add(o.site() + ": " + o.ruledOut());
                }
            }
        }
        if (options.size() > alternatives.size() + 1) {
            reasons.add(Words.plural(options.size() - alternatives.size() - 1, "more site")
                    + " scored worse and are not listed");
        }
        reasons.addAll(Words.grouped(hard));
        LatencyEstimate l = c.latency();
        long start = now + l.transferMillis() + l.queueMillis();
        return new PlacementDecision.Placed(request.id(), c, start, start + l.computeMillis(), reasons, alternatives);
    }

    private static String hardRuleOut(PlacementRequest request, Cluster c, SiteStatus status) {
        if (!request.site().isEmpty() && !request.site().equals(c.site().name())) {
            return "the job asks for " + request.site();
        }
        if (!status.online()) {
            return "offline";
        }
        if (!status.hasModel(request.model())) {
            return "model " + request.model() + " is not loaded (it has " + Words.sorted(status.models()) + ")";
        }
        int need = request.neededGpus();
        if (need == 0) {
            return null;
        }
        int largest = 0;
        long mostMemory = -1; // the most GPU memory free on a node with accepted GPUs; -1 = no such node
        boolean anyGpu = false;
        for (NodeSpec n : c.nodes()) {
            if (n.gpus() > 0) {
                anyGpu = true;
                if (request.demand().acceptsModel(n.gpuModel())) {
                    mostMemory = Math.max(mostMemory, n.gpuMemoryMib());
                    if (n.gpuMemoryMib() >= request.minGpuMemoryMib()) {
                        largest = Math.max(largest, n.gpus());
                    }
                }
            }
        }
        if (!anyGpu) {
            return "has no GPU, the job needs " + Words.plural(need, "GPU");
        }
        if (largest == 0 && mostMemory >= 0) {
            return "has " + mostMemory + " MiB of GPU memory free, the job needs " + request.minGpuMemoryMib() + " MiB";
        }
        if (largest == 0) {
            // the words only when ruled out: a list per site per decision was a fifth of what a decision allocated
            List<String> models = new ArrayList<>();
            for (NodeSpec n : c.nodes()) {
                if (n.gpus() > 0) {
                    models.add(n.gpuModel());
                }
            }
            return "has " + Words.sorted(models) + " GPUs, the job needs one of "
                    + Words.sorted(request.demand().gpuModels());
        }
        return largest < need ? "needs " + Words.plural(need, "GPU") + ", largest node has " + largest : null;
    }

    private Option score(PlacementRequest request, Cluster c, SiteStatus status, Transfer t, int pending) {
        int gpus = 0;
        for (NodeSpec n : c.nodes()) {
            if (n.gpus() > 0 && request.demand().acceptsModel(n.gpuModel())) {
                gpus += n.gpus();
            }
        }
        int workers = Math.max(1, request.neededGpus() == 0 ? gpus : gpus / request.neededGpus());
        CostModel.Estimate compute = costs.compute(request.model(), c.site().name(), OnlinePlanner.gpuModelOf(c));
        int queued = status.queuedTasks() + pending;
        boolean moved = inputMoved(request, c.site().name());
        CostModel.Estimate overhead = costs.overhead(c.site().name(), moved, overheadApart(c, queued));
        long modelledQueueMs = Math.max(0, Math.round(queueWait(queued, workers, compute.value()) - t.millis()
                - overhead.value()));
        // what the site's tasks waited beyond what was predicted for them: the worker's pick-up delay, mostly
        CostModel.Estimate beyond = costs.queueBeyond(c.site().name(), queued > 0);
        long queueMs = Math.max(0, Math.round(modelledQueueMs + beyond.value()));
        // the site's learnt overhead (the task's trip there, its result's back) travels with the transfer term
        LatencyEstimate latency = new LatencyEstimate(t.millis() + Math.round(overhead.value()), queueMs,
                Math.round(compute.value()));
        LatencySpread.Tail tail = byTail() ? spread.tail(c.site().name(), request.model(), moved, queued > 0)
                : LatencySpread.NONE;
        long score = Math.round(latency.totalMillis() * tail.factor());
        String ruledOut = null;
        int limit = config.maxQueuePerGpu() * Math.max(1, gpus);
        if (queued >= limit) {
            ruledOut = "saturated: " + Words.plural(queued, "task") + " waiting (limit " + limit + ")";
        } else if (request.latencySloMillis() > 0 && score > request.latencySloMillis()) {
            // by the score the sites are ranked by: a site whose p90 misses the SLO misses it for more than 1 job in 10
            ruledOut = "predicted " + (tail.samples() > 0 ? config.chooseBy() + " " : "") + Words.millis(score) + " exceeds the "
                    + Words.millis(request.latencySloMillis()) + " SLO";
        }
        return new Option(c, queued, workers, compute, overhead, beyond, modelledQueueMs, latency, moved, tail, score,
                ruledOut);
    }

    /**
     * Whether a job placed at {@code c} with {@code queued} tasks ahead has its overhead learnt apart: at an edge
     * site, behind other tasks ({@link CostModel#overhead(String, boolean, boolean)}).
     */
    static boolean overheadApart(Cluster c, int queued) {
        return queued > 0 && c.site().kind() == dev.continuum.placement.core.model.Site.Kind.EDGE;
    }

    /** Whether any of the job's inputs lies at another site than {@code site}. */
    boolean inputMoved(PlacementRequest request, String site) {
        for (DataReference d : request.data()) {
            if (!site.equals(inventory.siteByEndpoint().get(d.endpointId()))) {
                return true;
            }
        }
        return false;
    }

    /**
     * How long a task arriving now waits for a worker, with {@code ahead} tasks running or waiting there (what a
     * heartbeat counts) on {@code workers} workers: none while a worker is free; otherwise until {@code ahead −
     * workers + 1} of them are done, the running ones being half done on average. (Counting every task ahead as a
     * whole run, as before, overstated the wait by half a run on a gateway and made a pool with free workers look
     * busy: the median prediction was 14 % off in the simulator.) The wait overlaps the input's transfer and the
     * site's overhead: the worker drains the tasks ahead while the new one travels there, and a task counted ahead
     * (sent and not answered) spends its own overhead away from the worker, much of it with its result on the way
     * back. (Overlapping the transfer alone predicted a 105 ms median wait at a 0.1-CPU gateway on the emulated
     * continuum, where tasks waited 7 ms.)
     */
    static double queueWait(int ahead, int workers, double computeMillis) {
        return ahead < workers ? 0 : (ahead - workers + 0.5) * computeMillis / workers;
    }

    /** The option in words; built only for the sites a decision lists (words cost more than the numbers). */
    private Candidate candidate(PlacementRequest request, Option o, long now) {
        LatencyEstimate l = o.latency();
        List<String> transferWords = new ArrayList<>();
        transfer(request, o.site(), now, transferWords, List.of());
        if (o.overhead().samples() > 0) {
            transferWords.add(Words.millis(o.overhead().value()) + " task and result round trip (learnt from "
                    + Words.plural(o.overhead().samples(), "job") + " at " + o.overhead().basis() + ")");
        }
        String explanation = tailInWords(o) + Words.millis(l.totalMillis()) + " = transfer " + Words.millis(l.transferMillis())
                + " (" + String.join(", ", transferWords) + ") + queue " + Words.millis(l.queueMillis()) + " ("
                + queueInWords(o, l) + ") + compute " + Words.millis(l.computeMillis()) + " ("
                + o.compute().inWords() + ")";
        if (o.ruledOut() != null) {
            explanation = "ruled out, " + o.ruledOut() + ": " + explanation;
        }
        return new Candidate(o.site(), o.site(), request.neededGpus(), o.score(), l, explanation);
    }

    /** Under a quantile choice: the option's score and what it rests on, before the mean's terms. */
    private String tailInWords(Option o) {
        if (o.tail().samples() == 0) {
            return ""; // ranked by its mean: no spread learnt there yet (or choose-by=mean)
        }
        String q = config.chooseBy();
        String whose = o.tail().borrowedFrom() == null ? "the " + q
                : "no spread of its own yet: the riskiest site's, " + o.tail().borrowedFrom() + "'s " + q;
        return q + " " + Words.millis(o.score()) + String.format(java.util.Locale.ROOT,
                " (mean × %.2f, %s of actual / predicted over its last %s); mean ", o.tail().factor(), whose,
                Words.plural(o.tail().samples(), "job"));
    }

    private static String queueInWords(Option o, LatencyEstimate l) {
        String ahead = Words.plural(o.queued(), "task") + " ahead";
        String beyond = o.queueBeyond().samples() == 0 ? "" : ", " + (o.queueBeyond().value() >= 0 ? "+ " : "− ")
                + Words.millis(Math.abs(o.queueBeyond().value())) + " its tasks waited beyond that (learnt from "
                + Words.plural(o.queueBeyond().samples(), "job") + " at " + o.queueBeyond().basis() + ")";
        if (o.queued() < o.workers()) {
            return ahead + ", " + Words.plural(o.workers(), "worker") + ": one is free" + beyond;
        }
        long wait = Math.round(queueWait(o.queued(), o.workers(), o.compute().value()));
        return ahead + " × " + Words.millis(o.compute().value()) + " over " + Words.plural(o.workers(), "worker")
                + (o.workers() == 1 ? ", the running one half done" : ", the running ones half done") + (l.transferMillis() > 0 && wait > o.modelledQueueMillis()
                ? ", less the " + Words.millis(wait - o.modelledQueueMillis()) + " it drains while the job gets there" : "")
                + beyond;
    }

    /** Moving the input to {@code site}; says how in {@code words} when given, or why not from {@code noLink}. */
    private Transfer transfer(PlacementRequest request, String site, long now, List<String> words,
                              List<String> noLink) {
        if (request.data().isEmpty()) {
            if (words != null) {
                words.add("no input data");
            }
            return new Transfer(0, null);
        }
        double ms = 0;
        for (int i = 0; i < request.data().size(); i++) {
            DataReference d = request.data().get(i);
            String from = inventory.siteByEndpoint().get(d.endpointId());
            if (site.equals(from)) {
                if (words != null) {
                    words.add(Words.bytes(d.sizeBytes()) + " already here");
                }
                continue;
            }
            Link l = link(from, site);
            long behind = Math.max(0, busyUntil(from, site) - now);
            // an input behind others on the link moves at the rate inputs behind others were measured at
            CostModel.Estimate learnt = costs.bandwidth(from, site, behind > 0);
            if (l == null && learnt == null) {
                return new Transfer(0, noLink.get(i));
            }
            double bytesPerSecond = learnt != null ? learnt.value() : l.bandwidthGbps() * 1e9 / 8;
            ms += behind + (l == null ? 0 : l.latencyMs()) + d.sizeBytes() * 1000.0 / bytesPerSecond;
            if (words != null) {
                words.add(Words.bytes(d.sizeBytes()) + " from " + from + " at " + Words.rate(bytesPerSecond)
                        + (learnt != null ? " " + learnt.basis() : " configured")
                        + (behind > 0 ? ", after " + Words.millis(behind) + " of inputs already on the link" : ""));
            }
        }
        return new Transfer(Math.round(ms), null);
    }
}
