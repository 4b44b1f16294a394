package dev.continuum.placement.core.state;

import dev.continuum.placement.core.model.Job;

/**
 * A job between arrival and completion: waiting or running, with its progress. Progress is kept
 * in "seconds of work at full speed"; a running job advances at {@link #rate()} per second,
 * after any restore delay from a preemption or migration.
 */
public final class ActiveJob {
    private final Job job;
    private final long seq;
    private double remaining;
    private double attainedGpuSeconds;
    private double lastUpdate;
    private double pausedUntil;
    private double firstStart = -1;
    private double lastStart = -1;
    private double rate;
    private Placement placement;
    private int allocatedGpus;
    private boolean borrowed;
    private int preemptions;
    private int migrations;
    private long version;
    private double queueKey;

    ActiveJob(Job job, long seq) {
        this.job = job;
        this.seq = seq;
        this.remaining = job.duration();
        this.lastUpdate = job.arrival();
    }

    public Job job() { return job; }
    /** Arrival order, the final tie-breaker everywhere (keeps runs deterministic). */
    public long seq() { return seq; }
    public boolean running() { return placement != null; }
    public Placement placement() { return placement; }
    public boolean borrowed() { return borrowed; }
    public int preemptions() { return preemptions; }
    public int migrations() { return migrations; }
    public double firstStart() { return firstStart; }
    public double lastStart() { return lastStart; }
    public double rate() { return rate; }
    /** Bumped whenever the expected finish time changes; stale completion events carry an old one. */
    public long version() { return version; }
    public double queueKey() { return queueKey; }
    public int allocatedGpus() { return allocatedGpus; }

    /** Seconds of full-speed work left at {@code now}. */
    public double remainingAt(double now) {
        return remaining - progressSince(now) * rate;
    }

    /** GPU-seconds of service received by {@code now} (Tiresias' attained service). */
    public double attainedAt(double now) {
        return attainedGpuSeconds + progressSince(now) * allocatedGpus();
    }

    private double progressSince(double now) {
        if (placement == null) {
            return 0;
        }
        return Math.max(0, now - Math.max(lastUpdate, pausedUntil));
    }

    /** When the job will finish if nothing changes. */
    public double expectedFinish() {
        return Math.max(lastUpdate, pausedUntil) + remaining / rate;
    }

    void advance(double now) {
        double dt = progressSince(now);
        remaining = Math.max(0, remaining - dt * rate);
        attainedGpuSeconds += dt * allocatedGpus();
        lastUpdate = now;
    }

    void setQueueKey(double key) {
        this.queueKey = key;
    }

    void start(double now, Placement p, double newRate, boolean isBorrowed, double restoreDelay) {
        advance(now);
        placement = p;
        allocatedGpus = p.gpuCount();
        rate = newRate;
        borrowed = isBorrowed;
        pausedUntil = now + restoreDelay;
        if (firstStart < 0) {
            firstStart = now;
        }
        lastStart = now;
        version++;
    }

    /** Stops the job; the checkpoint cost is progress lost (re-done after restart). */
    void stop(double now, double lostSeconds) {
        advance(now);
        remaining = Math.min(job.duration(), remaining + lostSeconds * rate);
        placement = null;
        allocatedGpus = 0;
        rate = 0;
        borrowed = false;
        version++;
    }

    void countPreemption() { preemptions++; }
    void countMigration() { migrations++; }

    @Override
    public String toString() {
        return job.id() + (running() ? "@" + placement : "(waiting)");
    }
}
