package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.planner.PlacementDecision.Candidate;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.policy.GreenPolicy;
import dev.continuum.placement.core.policy.Policy;
import dev.continuum.placement.core.policy.PolicyOptions;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Decision;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.Slice;
import dev.continuum.placement.core.state.Workload;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One datacenter cluster's training queue, run exactly as the simulator runs it: the same {@link Workload} and
 * {@link Policy} (parsed from the same policy string), an arrival entering the queue and a policy round after
 * every arrival, completion or tick. The policy's {@link Decision}s become {@link PlacementDecision}s.
 */
final class TrainingQueue {
    private final Cluster cluster;
    private final String policyName;
    private final Policy policy;
    private final Workload workload;
    private final Map<String, ActiveJob> jobs = new HashMap<>();

    TrainingQueue(Cluster cluster, PlannerConfig config) {
        this.cluster = cluster;
        this.policyName = config.policy();
        this.policy = Policies.parse(config.policy(), PolicyOptions.defaults(false), config.carbon(), cluster.site().name());
        this.workload = new Workload(new ClusterState(cluster), policy.order(), config.costs(), policy.lending());
    }

    Cluster cluster() { return cluster; }
    String name() { return cluster.site().name(); }
    int freeGpus() { return workload.state().fullyFreeGpusTotal(); }
    int waiting() { return workload.waitingCount(); }
    boolean holds(String jobId) { return jobs.containsKey(jobId); }
    int totalGpus() { return workload.state().totalGpus(); }

    /** The jobs in this cluster's queue, not running. */
    java.util.Set<String> waitingIds() {
        java.util.Set<String> ids = new java.util.TreeSet<>();
        jobs.forEach((id, a) -> {
            if (!a.running()) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** Every job here, waiting or running, in arrival order (to carry them over when the cluster changes). */
    List<ActiveJob> jobsInOrder() {
        return jobs.values().stream().sorted(java.util.Comparator.comparingLong(ActiveJob::seq)).toList();
    }

    /** Why the job can never run here, even on an empty cluster, or null. */
    String neverFits(Job job) {
        if (!workload.everFits(job)) {
            long accepted = cluster.nodes().stream().filter(n -> job.demand().acceptsModel(n.gpuModel()))
                    .mapToLong(n -> n.gpus()).sum();
            return "needs " + Words.plural(job.minGpus(), "GPU") + " with the CPU and memory asked, it has "
                    + accepted + " such GPUs (largest node " + cluster.maxGpusPerNode() + ")";
        }
        Partition p = cluster.partitionsByName().get(job.partition());
        if (p != null && !policy.lending() && (long) p.quotaGpus() * 1000 < job.demand().totalGpuMilli()) {
            return "needs " + Words.plural(job.demand().gpus(), "GPU") + ", partition " + p.name()
                    + " has a quota of " + p.quotaGpus() + " and policy " + policyName + " does not lend";
        }
        return null;
    }

    /**
     * A job that was running here before the planner restarted, on the nodes and GPUs its last decision named
     * ({@code target}, as {@link #target} writes it): it runs there again from {@code now}, without a decision.
     * Returns false, leaving it waiting, when those GPUs are no longer there or free (the cluster changed).
     */
    boolean resume(Job job, String target, double now) {
        admit(job, now);
        Placement p = parseTarget(target, job);
        if (p == null || !workload.state().fits(p)) {
            return false;
        }
        try {
            workload.session(now).start(jobs.get(job.id()), p, 1.0);
            return true;
        } catch (IllegalStateException overQuota) {
            return false;
        }
    }

    /** The inverse of {@link #target}: "n0 GPUs [0, 1] + n1 GPUs [2]" → slices; null if a node is unknown. */
    private Placement parseTarget(String target, Job job) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < cluster.nodes().size(); i++) {
            index.put(cluster.nodes().get(i).id(), i);
        }
        List<Slice> slices = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\S+) GPUs \\[([0-9, ]*)\\](?: \\((\\d+)‰ each\\))?")
                .matcher(target == null ? "" : target);
        int total = Math.max(1, job.demand().gpus());
        while (m.find()) {
            Integer node = index.get(m.group(1));
            if (node == null) {
                return null;
            }
            int[] gpus = m.group(2).isBlank() ? new int[0]
                    : java.util.Arrays.stream(m.group(2).split(",\\s*")).mapToInt(Integer::parseInt).toArray();
            int milli = m.group(3) == null ? 1000 : Integer.parseInt(m.group(3));
            long share = Math.max(1, gpus.length);
            slices.add(new Slice(node, gpus, milli, job.demand().cpuMilli() * share / total,
                    job.demand().memoryMib() * share / total));
        }
        return slices.isEmpty() ? null : new Placement(slices);
    }

    List<PlacementDecision> arrive(Job job, double now) {
        admit(job, now);
        return round(now);
    }

    /** Queues a job without a round (carrying several over at once, then one round). */
    void admit(Job job, double now) {
        policy.onArrival(job);
        jobs.put(job.id(), workload.arrive(job, now));
    }

    /**
     * Frees a finished job's GPUs and runs a round; a job still waiting here leaves the queue (it ended, or went to
     * another cluster: left in, it would be started here later and hold GPUs for nothing).
     */
    List<PlacementDecision> complete(String jobId, double now) {
        ActiveJob a = jobs.get(jobId);
        if (a == null) {
            return List.of();
        }
        if (!a.running()) {
            jobs.remove(jobId);
            workload.withdraw(a);
            return List.of();
        }
        jobs.remove(jobId);
        workload.complete(a, now);
        policy.onCompletion(a, now);
        return round(now);
    }

    List<PlacementDecision> round(double now) {
        Workload.Session session = workload.session(now);
        policy.schedule(session);
        List<PlacementDecision> out = new ArrayList<>(session.decisions().size());
        for (Decision d : session.decisions()) {
            out.add(translate(d, now));
        }
        return out;
    }

    private PlacementDecision translate(Decision d, double now) {
        ActiveJob a = jobs.get(d.jobId());
        return switch (d) {
            case Decision.Start s -> started(a, s, now);
            case Decision.Preempt p -> new PlacementDecision.Preempted(d.jobId(), name(),
                    p.reason() == Decision.Reason.RECLAIM
                            ? "its partition ran on borrowed GPUs that their owner reclaimed"
                            : "a job ahead of it under policy " + policyName + " needed its GPUs; it waits again");
            case Decision.Migrate m -> new PlacementDecision.Moved(d.jobId(), candidate(a, m.to(), now),
                    "moved to free a whole node for a waiting job (policy " + policyName + ")");
            case Decision.Resize r -> new PlacementDecision.Moved(d.jobId(), candidate(a, r.to(), now),
                    "resized to " + Words.plural(r.to().gpuCount(), "GPU") + " (elastic, policy " + policyName + ")");
        };
    }

    private PlacementDecision started(ActiveJob a, Decision.Start s, double now) {
        Candidate c = candidate(a, s.placement(), now);
        List<String> reasons = new ArrayList<>();
        reasons.add("policy " + policyName + " started it on " + name() + ": " + c.target());
        if (a.job().arrival() < Math.floor(now)) {
            reasons.add("waited " + Words.millis((now - a.job().arrival()) * 1000) + " in the queue");
        }
        if (s.borrowed()) {
            reasons.add("runs on GPUs lent by another partition; they may be reclaimed");
        }
        long start = Math.round(now * 1000);
        return new PlacementDecision.Placed(a.job().id(), c, start, Math.round(a.expectedFinish() * 1000), reasons,
                List.of());
    }

    private Candidate candidate(ActiveJob a, Placement p, double now) {
        long queueMs = Math.max(0, Math.round((now - a.job().arrival()) * 1000));
        long computeMs = Math.round(a.remainingAt(now) * 1000 / Math.max(a.rate(), 1e-9));
        return new Candidate(name(), target(p), p.gpuCount(), 0, new LatencyEstimate(0, queueMs, computeMs),
                "nodes and GPUs chosen by " + policyName);
    }

    /** "node-3 GPUs [0, 1] + node-4 GPUs [0, 1]": node ids as the cluster names them. */
    private String target(Placement p) {
        List<String> parts = new ArrayList<>();
        for (Slice s : p.slices()) {
            String gpus = java.util.Arrays.toString(s.gpus()) + (s.milliPerGpu() < 1000 ? " (" + s.milliPerGpu()
                    + "‰ each)" : "");
            parts.add(cluster.nodes().get(s.node()).id() + " GPUs " + gpus);
        }
        return String.join(" + ", parts);
    }

    /** The job's queue wait so far, for a {@link PlacementDecision.Queued} reason. */
    PlacementDecision queued(Job job) {
        List<String> reasons = new ArrayList<>();
        if (policy instanceof GreenPolicy green) {
            green.holdOf(job.id()).ifPresent(h -> reasons.add("deferred by green until "
                    + java.time.Instant.ofEpochSecond((long) h.untilSeconds()) + ": mean signal over its run "
                    + String.format(java.util.Locale.ROOT, "%.1f", h.meanThen()) + " then against " + String.format(java.util.Locale.ROOT, "%.1f", h.meanNow()) + " now, within its deadline "
                    + java.time.Instant.ofEpochSecond(job.arrival() + job.deadline())));
        }
        reasons.add("waits on " + name() + " for " + Words.plural(job.demand().gpus(), "GPU") + " under policy "
                + policyName + ": " + freeGpus() + " GPUs free, " + Words.plural(workload.waitingCount(), "job")
                + " waiting");
        return new PlacementDecision.Queued(job.id(), name(), workload.waitingCount(), reasons);
    }

    /** When the policy wants a round although nothing happens (a green window opening), in epoch seconds. */
    double wakeUpAt(double now) {
        return policy.wakeUpAt(now);
    }
}
