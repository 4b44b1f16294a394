package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Slice;

/**
 * Synergy-like resource-sensitive CPU allocation. A job may start with as little as half its
 * CPU request (and slow down) or receive up to twice it when the node has CPU no other free GPU
 * will need (and speed up). Speed = (allocated / requested) ^ sensitivity, capped at 1.3x; the
 * sensitivity of each job (0.1..0.6) is drawn from the seed and job id, since traces carry none.
 */
public final class SynergyCpu {
    private final long seed;

    public SynergyCpu(long seed) {
        this.seed = seed;
    }

    /** The demand used to find a node: the smallest CPU share the job accepts. */
    public Demand minimal(Demand d) {
        return new Demand(d.gpus(), d.gpuMilli(), d.gpuModels(), d.cpuMilli() / 2, d.memoryMib());
    }

    public double sensitivity(Job job) {
        long h = seed ^ (job.id().hashCode() * 0x9E3779B97F4A7C15L);
        h ^= h >>> 31;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 29;
        double u = (h >>> 11) * 0x1.0p-53;
        return 0.1 + 0.5 * u;
    }

    /** Widens the slice's CPU to what the node can spare and returns it with the job's speed. */
    public Allocation allocate(Job job, ClusterView v, Slice s) {
        long req = job.demand().cpuMilli();
        if (req == 0) {
            return new Allocation(withCpu(s, s.cpuMilli()), 1.0);
        }
        int node = s.node();
        var spec = v.spec(node);
        long cpuPerGpu = spec.gpus() == 0 ? 0 : spec.cpuMilli() / spec.gpus();
        int otherFree = Math.max(0, v.fullyFreeGpus(node) - s.gpus().length);
        long spare = v.freeCpu(node) - otherFree * cpuPerGpu;
        long alloc = Math.max(req / 2, Math.min(2 * req, spare));
        alloc = Math.min(alloc, v.freeCpu(node));
        double speed = Math.min(1.3, Math.pow((double) alloc / req, sensitivity(job)));
        return new Allocation(withCpu(s, alloc), speed);
    }

    private static Slice withCpu(Slice s, long cpu) {
        return new Slice(s.node(), s.gpus(), s.milliPerGpu(), cpu, s.memoryMib());
    }

    public record Allocation(Slice slice, double speed) {
    }
}
