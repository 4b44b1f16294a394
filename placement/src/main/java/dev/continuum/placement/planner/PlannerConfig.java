package dev.continuum.placement.planner;

import dev.continuum.placement.policy.CarbonSignal;
import dev.continuum.placement.policy.Policies;
import dev.continuum.placement.state.PreemptionCosts;

/**
 * How the planner decides.
 *
 * @param policy             training (and other GPU) jobs' policy in the simulator's grammar, e.g. {@code las+fgd}
 * @param priorComputeMillis compute time assumed for a model never seen on a GPU model
 * @param priorWeight        how many observations the prior is worth: the first ones blend with it
 * @param minLearningRate    the learning rate never drops below this, so estimates follow drift (EWMA)
 * @param maxQueuePerGpu     an edge site with more waiting tasks per GPU than this is saturated
 * @param costs              checkpoint/restore/migration costs, as in the simulator
 * @param assumedTrainingSeconds run time assumed for a training job that gives no estimate (orders SJF/SRTF)
 * @param carbon             carbon intensity or energy price per site, for {@code +green} ({@link CarbonSignal#NONE}: none)
 */
public record PlannerConfig(String policy, double priorComputeMillis, double priorWeight, double minLearningRate,
                            int maxQueuePerGpu, PreemptionCosts costs, long assumedTrainingSeconds,
                            CarbonSignal carbon) {
    public static final PlannerConfig DEFAULT = new PlannerConfig("fifo", 100, 1, 0.2, 32, PreemptionCosts.DEFAULT,
            3600);

    /** Without a carbon signal (the shape before {@code +green}). */
    public PlannerConfig(String policy, double priorComputeMillis, double priorWeight, double minLearningRate,
                         int maxQueuePerGpu, PreemptionCosts costs, long assumedTrainingSeconds) {
        this(policy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs, assumedTrainingSeconds,
                CarbonSignal.NONE);
    }

    public PlannerConfig {
        carbon = carbon == null ? CarbonSignal.NONE : carbon;
        Policies.parse(policy); // refuse a typo at start-up, not at the first training job
        if (priorComputeMillis <= 0 || priorWeight < 0 || minLearningRate <= 0 || minLearningRate > 1
                || maxQueuePerGpu <= 0 || assumedTrainingSeconds <= 0) {
            throw new IllegalArgumentException("planner config: priorComputeMillis, maxQueuePerGpu, assumedTrainingSeconds must be positive, "
                    + "priorWeight not negative, minLearningRate in (0, 1]");
        }
    }

    public PlannerConfig withPolicy(String newPolicy) {
        return new PlannerConfig(newPolicy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs,
                assumedTrainingSeconds, carbon);
    }

    public PlannerConfig withCarbon(CarbonSignal newCarbon) {
        return new PlannerConfig(policy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs,
                assumedTrainingSeconds, newCarbon);
    }
}
