package dev.continuum.placement.core.state;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.model.Partition;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The jobs between arrival and completion and the cluster they run on: the one place where state
 * changes. Waiting jobs sit in a queue ordered by the policy's {@link QueueKey}, computed when the
 * job enters the queue (a waiting job's key does not change: it receives no service).
 */
public final class Workload {
    private final ClusterState state;
    private final QueueKey queueKey;
    private final PreemptionCosts costs;
    private final boolean lending;
    private final Map<String, Partition> partitions;
    private final TreeSet<ActiveJob> waiting;
    private final Set<ActiveJob> running = new LinkedHashSet<>();
    private final Map<Demand, Boolean> everFitsMemo = new java.util.HashMap<>();
    private long nextSeq;
    private long preemptions;
    private long migrations;
    private double lostGpuSeconds;

    public Workload(ClusterState state, QueueKey queueKey, PreemptionCosts costs, boolean lending) {
        this.state = state;
        this.queueKey = queueKey;
        this.costs = costs;
        this.lending = lending;
        this.partitions = state.cluster().partitionsByName();
        this.waiting = new TreeSet<>(Comparator.comparingDouble(ActiveJob::queueKey).thenComparingLong(ActiveJob::seq));
    }

    public ClusterState state() { return state; }
    public int waitingCount() { return waiting.size(); }
    public Set<ActiveJob> running() { return running; }
    public long preemptions() { return preemptions; }
    public long migrations() { return migrations; }
    /** GPU-seconds spent on checkpoints, restores and migrations. */
    public double lostGpuSeconds() { return lostGpuSeconds; }

    /** Whether the job could ever run on this cluster when it is empty (memoized per demand shape). */
    public boolean everFits(Job job) {
        Demand key = job.minGpus() == job.demand().gpus() ? job.demand() : job.demand().withGpus(job.minGpus());
        Boolean known = everFitsMemo.get(key);
        if (known == null) {
            known = everFitsUncached(job);
            if (everFitsMemo.size() < 10_000) {
                everFitsMemo.put(key, known);
            }
        }
        return known;
    }

    private boolean everFitsUncached(Job job) {
        int want = job.minGpus();
        long totalAccepted = 0;
        for (NodeSpec n : state.cluster().nodes()) {
            boolean modelOk = want == 0 || job.demand().acceptsModel(n.gpuModel());
            if (!modelOk) {
                continue;
            }
            if (want <= n.gpus() && n.cpuMilli() >= job.demand().cpuMilli() && n.memoryMib() >= job.demand().memoryMib()) {
                return true;
            }
            totalAccepted += n.gpus();
        }
        return want > state.maxGpusPerNode() && totalAccepted >= want;
    }

    public ActiveJob arrive(Job job, double now) {
        ActiveJob a = new ActiveJob(job, nextSeq++);
        enqueue(a, now);
        return a;
    }

    /** Takes a job that has not started out of the queue (it went elsewhere or ended); false when it was not waiting. */
    public boolean withdraw(ActiveJob job) {
        return !job.running() && waiting.remove(job);
    }

    /** Removes a finished job and frees its resources. */
    public void complete(ActiveJob job, double now) {
        job.advance(now);
        state.release(job, job.placement(), job.borrowed());
        running.remove(job);
        job.stop(now, 0);
    }

    public Session session(double now) {
        return new Session(now);
    }

    private void enqueue(ActiveJob a, double now) {
        a.setQueueKey(queueKey.of(a, now));
        waiting.add(a);
    }

    private QuotaStatus quotaOf(Job job, long addMilli) {
        Partition p = partitions.get(job.partition());
        if (p == null) {
            return QuotaStatus.GUARANTEED;
        }
        if (state.guaranteedMilli(p.name()) + addMilli <= p.quotaGpus() * 1000L) {
            return QuotaStatus.GUARANTEED;
        }
        return lending ? QuotaStatus.BORROW : QuotaStatus.DENIED;
    }

    private double rateFor(ActiveJob a, Placement p, double cpuSpeed) {
        int requested = Math.max(1, a.job().demand().gpus());
        double gpuRatio = a.job().demand().gpus() == 0 ? 1.0 : (double) p.gpuCount() / requested;
        Set<Integer> racks = new java.util.HashSet<>();
        for (Slice s : p.slices()) {
            racks.add(state.rack(s.node()));
        }
        double slowdown = state.cluster().topology().slowdown(p.nodeCount(), racks.size());
        return gpuRatio * cpuSpeed / slowdown;
    }

    /** One scheduling round; see {@link SchedulingContext}. */
    public final class Session implements SchedulingContext {
        private final double now;
        private final List<Decision> decisions = new ArrayList<>();
        private final List<ActiveJob> changed = new ArrayList<>();

        private Session(double now) {
            this.now = now;
        }

        @Override public double now() { return now; }
        @Override public ClusterView cluster() { return state; }
        @Override public int waitingCount() { return waiting.size(); }
        @Override public Set<ActiveJob> running() { return running; }
        @Override public List<Decision> decisions() { return decisions; }

        /** Jobs whose finish time changed in this round (started, migrated, resized). */
        public List<ActiveJob> changed() { return changed; }

        @Override
        public List<ActiveJob> waiting(int limit) {
            List<ActiveJob> head = new ArrayList<>(Math.min(limit, waiting.size()));
            for (ActiveJob a : waiting) {
                if (head.size() >= limit) {
                    break;
                }
                head.add(a);
            }
            return head;
        }

        @Override
        public List<ActiveJob> waitingAfter(ActiveJob last, int limit) {
            List<ActiveJob> next = new ArrayList<>(Math.min(limit, waiting.size()));
            for (ActiveJob a : waiting.tailSet(last, false)) {
                if (next.size() >= limit) {
                    break;
                }
                next.add(a);
            }
            return next;
        }

        @Override
        public QuotaStatus quota(Job job, int gpus) {
            return quotaOf(job, (long) gpus * job.demand().gpuMilli());
        }

        @Override
        public void start(ActiveJob job, Placement placement, double cpuSpeed) {
            if (job.running() || !waiting.remove(job)) {
                throw new IllegalStateException("job " + job.job().id() + " is not waiting");
            }
            QuotaStatus q = quotaOf(job.job(), placement.gpuMilli());
            if (q == QuotaStatus.DENIED) {
                waiting.add(job);
                throw new IllegalStateException("job " + job.job().id() + " is over its partition's quota");
            }
            boolean borrowed = q == QuotaStatus.BORROW;
            double restore = job.preemptions() > 0 && job.lastStart() >= 0 ? costs.restoreSeconds() : 0;
            state.allocate(job, placement, borrowed);
            job.start(now, placement, rateFor(job, placement, cpuSpeed), borrowed, restore);
            lostGpuSeconds += restore * placement.gpuMilli() / 1000.0;
            running.add(job);
            changed.add(job);
            decisions.add(new Decision.Start(job.job().id(), placement, borrowed));
        }

        @Override
        public void preempt(ActiveJob job, Decision.Reason reason) {
            if (!job.running()) {
                throw new IllegalStateException("job " + job.job().id() + " is not running");
            }
            job.advance(now);
            state.release(job, job.placement(), job.borrowed());
            lostGpuSeconds += costs.checkpointSeconds() * job.placement().gpuMilli() / 1000.0;
            running.remove(job);
            job.stop(now, costs.checkpointSeconds());
            job.countPreemption();
            preemptions++;
            enqueue(job, now);
            changed.remove(job);
            decisions.add(new Decision.Preempt(job.job().id(), reason));
        }

        @Override
        public void migrate(ActiveJob job, Placement to) {
            Placement from = job.placement();
            moveTo(job, to, costs.migrationSeconds());
            job.countMigration();
            migrations++;
            lostGpuSeconds += costs.migrationSeconds() * to.gpuMilli() / 1000.0;
            decisions.add(new Decision.Migrate(job.job().id(), from, to));
        }

        @Override
        public void resize(ActiveJob job, Placement to) {
            Placement from = job.placement();
            moveTo(job, to, 0);
            decisions.add(new Decision.Resize(job.job().id(), from, to));
        }

        private void moveTo(ActiveJob job, Placement to, double pause) {
            if (!job.running()) {
                throw new IllegalStateException("job " + job.job().id() + " is not running");
            }
            job.advance(now);
            boolean borrowed = job.borrowed();
            double cpuSpeed = job.rate() / rateFor(job, job.placement(), 1.0);
            state.release(job, job.placement(), borrowed);
            state.allocate(job, to, borrowed);
            job.start(now, to, rateFor(job, to, cpuSpeed), borrowed, pause);
            if (!changed.contains(job)) {
                changed.add(job);
            }
        }
    }
}
