package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ActiveJob;

import java.util.HashMap;
import java.util.Map;

/**
 * Helios' QSSF: order by predicted GPU time (predicted duration x GPUs), where the duration is
 * predicted from the same user's finished jobs (running mean), falling back to all finished
 * jobs, then to {@code priorDuration}. Not clairvoyant: it never reads a job's own duration.
 */
public final class QuasiShortestServiceFirst implements JobOrder {
    private final double priorDuration;
    private final Map<String, double[]> byUser = new HashMap<>();
    private double allSum;
    private long allCount;

    public QuasiShortestServiceFirst() {
        this(3_600);
    }

    public QuasiShortestServiceFirst(double priorDuration) {
        this.priorDuration = priorDuration;
    }

    @Override public String name() { return "qssf"; }
    @Override public boolean preemptive() { return false; }

    public double predictedDuration(Job job) {
        double[] h = byUser.get(job.user());
        if (h != null && h[1] > 0) {
            return h[0] / h[1];
        }
        return allCount > 0 ? allSum / allCount : priorDuration;
    }

    @Override
    public double of(ActiveJob job, double now) {
        return predictedDuration(job.job()) * Math.max(1, job.job().demand().gpus());
    }

    @Override
    public void onCompletion(ActiveJob job, double now) {
        double d = job.job().duration();
        double[] h = byUser.computeIfAbsent(job.job().user(), u -> new double[2]);
        h[0] += d;
        h[1]++;
        allSum += d;
        allCount++;
    }
}
