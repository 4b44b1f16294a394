package dev.continuum.placement.core.planner;

import dev.continuum.placement.core.policy.CarbonSignal;
import dev.continuum.placement.core.policy.Policies;
import dev.continuum.placement.core.state.PreemptionCosts;

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
 * @param chooseBy           what an inference job's sites are ranked by: {@code mean}, the predicted mean latency, or
 *                           {@code p50} … {@code p99}, that quantile as learnt from completed jobs ({@link
 *                           LatencySpread}: the mean times the quantile of actual / predicted); absent (a trace
 *                           recorded before 2026-11-29) = {@code mean}, as those decisions were made
 */
public record PlannerConfig(String policy, double priorComputeMillis, double priorWeight, double minLearningRate,
                            int maxQueuePerGpu, PreemptionCosts costs, long assumedTrainingSeconds,
                            CarbonSignal carbon, String chooseBy) {
    /** Ranks by the predicted mean. */
    public static final String MEAN = "mean";
    /**
     * Ranks by the predicted mean by default: on the emulated continuum on a quiet machine (2026-11-29 08:31–08:39)
     * the p90 ranking sent 21 of gw-slow's jobs over its slow link to another 0.1-CPU gateway and doubled the p95
     * (786 vs 387 ms) for no better prediction (13.5 vs 13.0 %); in the simulator it raised the p95 in 6 of 9 streams.
     * {@code p50} … {@code p99} stay available (docs/placement.md "Choosing by the tail").
     */
    public static final String DEFAULT_CHOOSE_BY = MEAN;
    public static final PlannerConfig DEFAULT = new PlannerConfig("fifo", 100, 1, 0.2, 32, PreemptionCosts.DEFAULT,
            3600, CarbonSignal.NONE, DEFAULT_CHOOSE_BY);

    /** Without a carbon signal (the shape before {@code +green}). */
    public PlannerConfig(String policy, double priorComputeMillis, double priorWeight, double minLearningRate,
                         int maxQueuePerGpu, PreemptionCosts costs, long assumedTrainingSeconds) {
        this(policy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs, assumedTrainingSeconds,
                CarbonSignal.NONE, DEFAULT_CHOOSE_BY);
    }

    public PlannerConfig {
        carbon = carbon == null ? CarbonSignal.NONE : carbon;
        chooseBy = chooseBy == null ? MEAN : chooseBy;
        chooseByQuantile(chooseBy); // refuse a typo at start-up
        Policies.parse(policy); // refuse a typo at start-up, not at the first training job
        if (priorComputeMillis <= 0 || priorWeight < 0 || minLearningRate <= 0 || minLearningRate > 1
                || maxQueuePerGpu <= 0 || assumedTrainingSeconds <= 0) {
            throw new IllegalArgumentException("planner config: priorComputeMillis, maxQueuePerGpu, assumedTrainingSeconds must be positive, "
                    + "priorWeight not negative, minLearningRate in (0, 1]");
        }
    }

    public PlannerConfig withPolicy(String newPolicy) {
        return new PlannerConfig(newPolicy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs,
                assumedTrainingSeconds, carbon, chooseBy);
    }

    public PlannerConfig withCarbon(CarbonSignal newCarbon) {
        return new PlannerConfig(policy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs,
                assumedTrainingSeconds, newCarbon, chooseBy);
    }

    /** The same, ranking inference sites by {@code newChooseBy} ({@code mean} or {@code p50} … {@code p99}). */
    public PlannerConfig withChooseBy(String newChooseBy) {
        return new PlannerConfig(policy, priorComputeMillis, priorWeight, minLearningRate, maxQueuePerGpu, costs,
                assumedTrainingSeconds, carbon, newChooseBy);
    }

    /**
     * The quantile {@code chooseBy} names, in (0, 1), or NaN for {@code mean}.
     *
     * @throws IllegalArgumentException naming {@code choose-by} and what it accepts
     */
    public static double chooseByQuantile(String chooseBy) {
        if (MEAN.equals(chooseBy)) {
            return Double.NaN;
        }
        if (chooseBy != null && chooseBy.matches("p[5-9][0-9]")) {
            return Integer.parseInt(chooseBy.substring(1)) / 100.0;
        }
        throw new IllegalArgumentException("choose-by: '" + chooseBy + "' is neither mean nor a quantile p50 … p99");
    }
}
