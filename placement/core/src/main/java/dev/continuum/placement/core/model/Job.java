package dev.continuum.placement.core.model;

import java.util.Objects;

/**
 * A job as a trace or a planner sees it. {@code duration} is the run time in seconds on its
 * requested GPUs at full speed; the simulator treats it as work and scales it by placement speed.
 * {@code minGpus}/{@code maxGpus} bound an elastic job (both equal {@code demand.gpus()} otherwise).
 * {@code deadline} is seconds after arrival for SLO accounting, or 0 for none.
 */
public record Job(String id, String user, String partition, long arrival, Demand demand, long duration,
                  int priority, boolean preemptible, boolean migratable, int minGpus, int maxGpus,
                  long deadline) {
    public Job {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(demand, "demand");
        user = user == null ? "" : user;
        partition = partition == null ? "" : partition;
        if (duration < 0) {
            throw new IllegalArgumentException("job " + id + ": negative duration");
        }
        if (minGpus <= 0) {
            minGpus = demand.gpus();
        }
        if (maxGpus <= 0) {
            maxGpus = demand.gpus();
        }
    }

    /** A rigid, preemptible, migratable job with whole GPUs: the common case in tests. */
    public static Job simple(String id, long arrival, int gpus, long duration) {
        return new Job(id, "", "", arrival, Demand.wholeGpus(gpus), duration, 0, true, true, gpus, gpus, 0);
    }

    public Job withUser(String newUser) {
        return new Job(id, newUser, partition, arrival, demand, duration, priority, preemptible, migratable,
                minGpus, maxGpus, deadline);
    }

    public Job withPartition(String newPartition) {
        return new Job(id, user, newPartition, arrival, demand, duration, priority, preemptible, migratable,
                minGpus, maxGpus, deadline);
    }

    public Job withDemand(Demand newDemand) {
        return new Job(id, user, partition, arrival, newDemand, duration, priority, preemptible, migratable,
                minGpus, maxGpus, deadline);
    }

    public Job withArrival(long newArrival) {
        return new Job(id, user, partition, newArrival, demand, duration, priority, preemptible, migratable,
                minGpus, maxGpus, deadline);
    }

    public boolean elastic() {
        return minGpus != maxGpus;
    }
}
