package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.NodeSpec;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.PreemptionCosts;
import dev.continuum.placement.core.state.Slice;
import dev.continuum.placement.core.state.Workload;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** Tiny hand-made clusters and jobs where a policy's choice is visible. */
final class Fixtures {
    private Fixtures() {
    }

    static NodeSpec node(String id, String rack, int gpus) {
        return new NodeSpec(id, rack, gpus, "V100", 32_768, 64_000, 256_000);
    }

    static Cluster cluster(NodeSpec... nodes) {
        return Cluster.of("test", List.of(nodes));
    }

    static Job job(String id, double arrival, int gpus, long duration) {
        return Job.simple(id, (long) arrival, gpus, duration);
    }

    static Job shared(String id, int gpuMilli) {
        return new Job(id, "", "", 0, new Demand(1, gpuMilli, Set.of(), 0, 0), 100, 0, true, true, 1, 1, 0);
    }

    /** A workload whose queue is ordered by the policy, without preemption costs. */
    static Workload workload(Cluster cluster, Policy policy) {
        return new Workload(new ClusterState(cluster), policy.order(), PreemptionCosts.FREE, policy.lending());
    }

    /** Runs one round at {@code now} and returns its decisions' job ids with their kind. */
    static List<String> round(Workload w, Policy policy, double now) {
        Workload.Session s = w.session(now);
        policy.schedule(s);
        List<String> out = new ArrayList<>();
        s.decisions().forEach(d -> out.add(d.getClass().getSimpleName().toLowerCase() + ":" + d.jobId()));
        return out;
    }

    /** Starts a job directly on the given node and GPUs, as if an earlier round had placed it. */
    static ActiveJob occupy(Workload w, Job job, int node, double now, int... gpus) {
        ActiveJob a = w.arrive(job, now);
        Workload.Session s = w.session(now);
        s.start(a, dev.continuum.placement.core.state.Placement.of(new Slice(node, gpus, job.demand().gpuMilli(),
                job.demand().cpuMilli(), job.demand().memoryMib())), 1.0);
        return a;
    }
}
