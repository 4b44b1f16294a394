package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Decision;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.QuotaStatus;
import dev.continuum.placement.core.state.SchedulingContext;
import dev.continuum.placement.core.state.Slice;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * A queue order plus a placement strategy, with optional preemption, reclaim of lent quota,
 * migration and Synergy-style CPU allocation. Each round walks the head of the queue (greedy
 * backfill: a job that does not fit does not block the ones behind it); for the first jobs that
 * do not fit it tries, in turn, reclaiming lent GPUs, preempting lower-priority jobs, and
 * migrating jobs off a nearly free node.
 */
public final class StandardPolicy implements Policy {
    private static final int ROOM_MAKING_ATTEMPTS = 2;
    private static final int MIGRATION_CANDIDATE_NODES = 3;
    private final String name;
    private final JobOrder order;
    private final PlacementStrategy placement;
    private final PolicyOptions options;
    private final SynergyCpu synergy;
    private double lastRoomMaking = Double.NEGATIVE_INFINITY;
    private boolean roomMakingDeferred;

    public StandardPolicy(String name, JobOrder order, PlacementStrategy placement, PolicyOptions options) {
        this.name = name;
        this.order = order;
        this.placement = placement;
        this.options = options;
        this.synergy = new SynergyCpu(options.seed());
    }

    @Override public String name() { return name; }
    @Override public JobOrder order() { return order; }
    @Override public boolean lending() { return options.lend(); }
    public PlacementStrategy placement() { return placement; }
    public PolicyOptions options() { return options; }

    @Override
    public double wakeUpAt(double now) {
        return roomMakingDeferred ? lastRoomMaking + options.roomMakingInterval() : Double.POSITIVE_INFINITY;
    }

    @Override
    public void onArrival(Job job) {
        order.onArrival(job);
        placement.onArrival(job);
    }

    @Override
    public void schedule(SchedulingContext ctx) {
        if (options.elastic() && ctx.waitingCount() > 0) {
            resizeElastic(ctx, false);
        }
        Round round = new Round(ctx.now() >= lastRoomMaking + options.roomMakingInterval(),
                ctx.cluster().mostFullyFreeGpusOnANode());
        roomMakingDeferred = false;
        // The lookahead is how many waiting jobs a round may pass over, not how many it looks at:
        // every start lets the walk go one job further, so jobs that fit keep starting until
        // `lookahead` jobs have been passed over or no GPU is free. (Counting looked-at jobs left
        // the cluster idle until the next arrival or completion; passing over the whole queue
        // would let small long jobs starve large ones that never find enough free GPUs at once.)
        int passedOver = 0;
        Set<String> preemptedThisRound = Set.of();
        List<ActiveJob> window = ctx.waiting(options.lookahead());
        walk:
        while (!window.isEmpty()) {
            for (ActiveJob w : window) {
                if (w.running() || preemptedThisRound.contains(w.job().id())) {
                    continue;
                }
                if (!consider(ctx, w, round) && ++passedOver >= options.lookahead()) {
                    break walk;
                }
            }
            if (window.size() < options.lookahead() || !anyGpuFree(ctx.cluster())) {
                break;
            }
            preemptedThisRound = preemptedIn(ctx.decisions(), preemptedThisRound);
            window = ctx.waitingAfter(window.getLast(), options.lookahead());
        }
        if (options.elastic() && ctx.waitingCount() == 0) {
            resizeElastic(ctx, true);
        }
    }

    /** What one round has learnt so far. */
    private static final class Round {
        final List<Demand> failed = new ArrayList<>();
        final boolean mayMakeRoom;
        int roomMakingAttempts;
        /**
         * Most whole GPUs free on one node at the round's start: a job needing more on one node
         * cannot start, which skips the node scan for it. Starts only lower the true value (so
         * the bound stays safe); room making may raise it, so then the bound is dropped.
         */
        int mostFreeOnANode;

        Round(boolean mayMakeRoom, int mostFreeOnANode) {
            this.mayMakeRoom = mayMakeRoom;
            this.mostFreeOnANode = mostFreeOnANode;
        }
    }

    /** Tries to start one waiting job, making room for it if the policy may; true if it started. */
    private boolean consider(SchedulingContext ctx, ActiveJob w, Round round) {
        Job job = w.job();
        boolean makesRoom = options.preempt() || options.migrate() || options.lend();
        if (cannotFitOneNode(job.demand(), round.mostFreeOnANode, ctx.cluster())
                && (round.roomMakingAttempts >= ROOM_MAKING_ATTEMPTS || !makesRoom)) {
            return false;
        }
        QuotaStatus quota = ctx.quota(job, job.demand().gpus());
        if (quota == QuotaStatus.DENIED) {
            return false;
        }
        if (!dominatedByFailure(job.demand(), round.failed, ctx.cluster()) && tryStart(ctx, w)) {
            return true;
        }
        if (round.roomMakingAttempts < ROOM_MAKING_ATTEMPTS && makesRoom) {
            if (!round.mayMakeRoom) {
                roomMakingDeferred = true;
                round.roomMakingAttempts = ROOM_MAKING_ATTEMPTS;
                return false;
            }
            lastRoomMaking = ctx.now();
            round.roomMakingAttempts++;
            round.mostFreeOnANode = Integer.MAX_VALUE;
            if (makeRoom(ctx, w, quota) && tryStart(ctx, w)) {
                round.failed.clear();
                return true;
            }
        }
        if (round.failed.size() < 16) {
            round.failed.add(job.demand());
        }
        return false;
    }

    /** A whole-GPU job that fits in one node needs that many fully free GPUs on one node. */
    private static boolean cannotFitOneNode(Demand d, int mostFreeOnANode, ClusterView v) {
        return d.gpus() > 0 && !d.fractional() && d.gpus() <= v.maxGpusPerNode() && d.gpus() > mostFreeOnANode;
    }

    private static boolean anyGpuFree(ClusterView v) {
        return v.allocatedGpuMilli() < v.totalGpus() * 1000L;
    }

    /** Jobs preempted so far this round: back in the queue, but not to restart in the round that stopped them. */
    private static Set<String> preemptedIn(List<Decision> decisions, Set<String> known) {
        Set<String> ids = null;
        for (Decision d : decisions) {
            if (d instanceof Decision.Preempt p && !known.contains(p.jobId())) {
                if (ids == null) {
                    ids = new HashSet<>(known);
                }
                ids.add(p.jobId());
            }
        }
        return ids == null ? known : ids;
    }

    /**
     * A demand at least as large as one that already failed this round fails too — on one node.
     * A job larger than a node is gang-placed over several, so a single-node failure says nothing
     * about it (a 4-GPU job finds no node with 4 free while a 16-GPU job fits on 3 free per node).
     */
    private static boolean dominatedByFailure(Demand d, List<Demand> failed, ClusterView v) {
        if (d.gpus() > v.maxGpusPerNode()) {
            return false;
        }
        for (Demand f : failed) {
            if (f.gpuModels().equals(d.gpuModels()) && f.fractional() == d.fractional() && f.gpus() <= d.gpus()
                    && f.gpuMilli() <= d.gpuMilli() && f.cpuMilli() <= d.cpuMilli() && f.memoryMib() <= d.memoryMib()) {
                return true;
            }
        }
        return false;
    }

    private boolean tryStart(SchedulingContext ctx, ActiveJob w) {
        ClusterView v = ctx.cluster();
        Demand d = w.job().demand();
        if (v.allocatedGpuMilli() + d.totalGpuMilli() > v.totalGpus() * 1000L) {
            return false;
        }
        if (d.gpus() > v.maxGpusPerNode()) {
            Placement p = GangPlacement.place(d, v, options.consolidate());
            if (p == null) {
                return false;
            }
            ctx.start(w, p, 1.0);
            return true;
        }
        if (options.synergy() && d.cpuMilli() > 0) {
            Slice s = placement.placeOnNode(synergy.minimal(d), v, PlacementStrategy.ANY_NODE);
            if (s == null) {
                return false;
            }
            SynergyCpu.Allocation a = synergy.allocate(w.job(), v, s);
            ctx.start(w, Placement.of(a.slice()), a.speed());
            return true;
        }
        Slice s = placement.placeOnNode(d, v, PlacementStrategy.ANY_NODE);
        if (s == null) {
            return false;
        }
        ctx.start(w, Placement.of(s), 1.0);
        return true;
    }

    private boolean makeRoom(SchedulingContext ctx, ActiveJob w, QuotaStatus quota) {
        if (options.lend() && quota == QuotaStatus.GUARANTEED
                && freeFor(ctx, w, v -> v.borrowed() && !v.job().partition().equals(w.job().partition()),
                Decision.Reason.RECLAIM)) {
            return true;
        }
        if (options.preempt()) {
            double waitingKey = w.queueKey();
            double now = ctx.now();
            if (freeFor(ctx, w, v -> v.job().preemptible() && order.of(v, now) > waitingKey, Decision.Reason.PRIORITY)) {
                return true;
            }
        }
        return options.migrate() && migrateToFree(ctx, w);
    }

    private interface VictimFilter {
        boolean test(ActiveJob running);
    }

    /**
     * Preempts the fewest GPUs' worth of eligible jobs (least important first) that lets the
     * waiting job fit on one node, or, for a multi-node job, enough jobs cluster-wide.
     */
    private boolean freeFor(SchedulingContext ctx, ActiveJob w, VictimFilter eligible, Decision.Reason reason) {
        ClusterView v = ctx.cluster();
        Demand d = w.job().demand();
        double now = ctx.now();
        // each eligible job's key computed once; least important (highest key, latest arrival) first
        record Victim(ActiveJob job, double key) {
        }
        List<Victim> eligibleJobs = new ArrayList<>();
        for (ActiveJob r : ctx.running()) {
            if (eligible.test(r)) {
                eligibleJobs.add(new Victim(r, order.of(r, now)));
            }
        }
        if (eligibleJobs.isEmpty()) {
            return false;
        }
        if (d.gpus() > v.maxGpusPerNode()) {
            eligibleJobs.sort(Comparator.comparingDouble((Victim x) -> -x.key).thenComparingLong(x -> -x.job.seq()));
            long freeable = (long) v.totalGpus() * 1000 - v.allocatedGpuMilli();
            for (Victim x : eligibleJobs) {
                freeable += x.job.placement().gpuMilli();
            }
            if (freeable < d.totalGpuMilli()) {
                return false;
            }
            for (Victim x : eligibleJobs) {
                if (GangPlacement.place(d, v, options.consolidate()) != null) {
                    break;
                }
                ctx.preempt(x.job, reason);
            }
            return GangPlacement.place(d, v, options.consolidate()) != null;
        }
        // only nodes that host an eligible victim can gain room
        @SuppressWarnings("unchecked")
        List<Victim>[] byNode = new List[v.nodeCount()];
        int[] touched = new int[16];
        int touchedCount = 0;
        for (Victim x : eligibleJobs) {
            for (Slice s : x.job.placement().slices()) {
                int node = s.node();
                if (byNode[node] == null) {
                    byNode[node] = new ArrayList<>(2);
                    if (touchedCount == touched.length) {
                        touched = java.util.Arrays.copyOf(touched, touched.length * 2);
                    }
                    touched[touchedCount++] = node;
                }
                byNode[node].add(x);
            }
        }
        java.util.Arrays.sort(touched, 0, touchedCount);
        Comparator<Victim> leastImportantFirst = Comparator.comparingDouble((Victim x) -> -x.key)
                .thenComparingLong(x -> -x.job.seq());
        int bestNode = -1;
        List<ActiveJob> bestVictims = null;
        long bestCost = Long.MAX_VALUE;
        for (int i = 0; i < touchedCount; i++) {
            int node = touched[i];
            if (d.gpus() > 0 && (v.spec(node).gpus() < d.gpus() || !d.acceptsModel(v.spec(node).gpuModel()))) {
                continue;
            }
            List<Victim> here = byNode[node];
            if (!d.fractional() && d.gpus() > 0) {
                // cheap bound before the exact check: whole GPUs that preempting everyone here would free
                int bound = v.fullyFreeGpus(node);
                for (Victim x : here) {
                    for (Slice s : x.job.placement().slices()) {
                        if (s.node() == node && s.milliPerGpu() == 1000) {
                            bound += s.gpus().length;
                        }
                    }
                }
                if (bound < d.gpus() || (long) (d.gpus() - v.fullyFreeGpus(node)) * 1000 >= bestCost) {
                    continue;
                }
            }
            here.sort(leastImportantFirst);
            List<ActiveJob> candidates = new ArrayList<>(here.size());
            for (Victim x : here) {
                candidates.add(x.job);
            }
            List<ActiveJob> chosen = fewestToFree(d, v, node, candidates);
            if (chosen == null) {
                continue;
            }
            long cost = 0;
            for (ActiveJob j : chosen) {
                cost += j.placement().gpuMilli();
            }
            if (cost < bestCost) {
                bestCost = cost;
                bestNode = node;
                bestVictims = chosen;
            }
        }
        if (bestNode < 0) {
            return false;
        }
        for (ActiveJob r : bestVictims) {
            ctx.preempt(r, reason);
        }
        return true;
    }

    /** Victims (a prefix of {@code candidates}) whose removal lets the demand fit the node, or null. */
    private static List<ActiveJob> fewestToFree(Demand d, ClusterView v, int node, List<ActiveJob> candidates) {
        int[] free = Fragmentation.freeOf(v, node);
        long cpu = v.freeCpu(node);
        long mem = v.freeMemory(node);
        List<ActiveJob> chosen = new ArrayList<>();
        for (ActiveJob r : candidates) {
            for (Slice s : r.placement().slices()) {
                if (s.node() == node) {
                    for (int g : s.gpus()) {
                        free[g] += s.milliPerGpu();
                    }
                    cpu += s.cpuMilli();
                    mem += s.memoryMib();
                }
            }
            chosen.add(r);
            if (fitsFree(d, free, cpu, mem)) {
                return chosen;
            }
        }
        return null;
    }

    private static boolean fitsFree(Demand d, int[] free, long cpu, long mem) {
        if (cpu < d.cpuMilli() || mem < d.memoryMib()) {
            return false;
        }
        int need = d.gpus();
        for (int f : free) {
            if (d.fractional() ? f >= d.gpuMilli() : f == 1000) {
                need--;
            }
        }
        return need <= 0;
    }

    /**
     * Defragmentation: find a node that would fit the waiting job if a few migratable single-node
     * jobs moved elsewhere, and move them (fewest GPUs moved first).
     */
    private boolean migrateToFree(SchedulingContext ctx, ActiveJob w) {
        ClusterView v = ctx.cluster();
        Demand d = w.job().demand();
        if (d.gpus() == 0 || d.gpus() > v.maxGpusPerNode()) {
            return false;
        }
        record Candidate(int node, List<ActiveJob> movers, long cost) {
        }
        List<Candidate> candidates = new ArrayList<>();
        for (int node = 0; node < v.nodeCount(); node++) {
            if (v.spec(node).gpus() < d.gpus() || !d.acceptsModel(v.spec(node).gpuModel())) {
                continue;
            }
            List<ActiveJob> movable = new ArrayList<>();
            for (ActiveJob r : v.jobsOn(node)) {
                if (r.job().migratable() && r.placement().nodeCount() == 1) {
                    movable.add(r);
                }
            }
            if (movable.isEmpty()) {
                continue;
            }
            movable.sort(Comparator.<ActiveJob>comparingLong(r -> r.placement().gpuMilli()).thenComparingLong(ActiveJob::seq));
            List<ActiveJob> movers = fewestToFree(d, v, node, movable);
            if (movers != null) {
                candidates.add(new Candidate(node, movers, movers.stream().mapToLong(r -> r.placement().gpuMilli()).sum()));
            }
        }
        candidates.sort(Comparator.comparingLong(Candidate::cost).thenComparingInt(Candidate::node));
        for (Candidate c : candidates.subList(0, Math.min(MIGRATION_CANDIDATE_NODES, candidates.size()))) {
            IntPredicate elsewhere = node -> node != c.node();
            List<Slice> targets = new ArrayList<>();
            // plan all moves first so that a partial defragmentation never happens
            ClusterViewWithHolds holds = new ClusterViewWithHolds(v);
            for (ActiveJob r : c.movers()) {
                Slice t = placement.placeOnNode(r.job().demand(), holds, elsewhere);
                if (t == null) {
                    targets = null;
                    break;
                }
                holds.hold(t);
                targets.add(t);
            }
            if (targets == null) {
                continue;
            }
            for (int i = 0; i < targets.size(); i++) {
                ctx.migrate(c.movers().get(i), Placement.of(targets.get(i)));
            }
            return true;
        }
        return false;
    }

    /** Grows elastic jobs when the queue is empty; shrinks them back to their request when it is not. */
    private void resizeElastic(SchedulingContext ctx, boolean grow) {
        ClusterView v = ctx.cluster();
        List<ActiveJob> elastic = new ArrayList<>();
        for (ActiveJob r : ctx.running()) {
            if (r.job().elastic() && r.placement().nodeCount() == 1 && !r.job().demand().fractional()) {
                elastic.add(r);
            }
        }
        for (ActiveJob r : elastic) {
            Slice s = r.placement().slices().getFirst();
            int node = s.node();
            int have = s.gpus().length;
            int want = grow
                    ? Math.min(r.job().maxGpus(), have + v.fullyFreeGpus(node))
                    : Math.max(r.job().minGpus(), Math.min(have, r.job().demand().gpus()));
            if (want == have) {
                continue;
            }
            int[] gpus = new int[want];
            int k = 0;
            for (int g : s.gpus()) {
                if (k < want) {
                    gpus[k++] = g;
                }
            }
            for (int g = 0; g < v.spec(node).gpus() && k < want; g++) {
                if (v.freeGpuMilli(node, g) == 1000) {
                    gpus[k++] = g;
                }
            }
            ctx.resize(r, Placement.of(new Slice(node, gpus, 1000, s.cpuMilli(), s.memoryMib())));
        }
    }
}
