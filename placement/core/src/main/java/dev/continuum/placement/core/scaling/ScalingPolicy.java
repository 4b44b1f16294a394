package dev.continuum.placement.core.scaling;

import java.util.Locale;

/**
 * Decides, at every tick of {@link #intervalMillis()}, how many workers a model's pool should have. Pure: all it
 * knows comes in the snapshots, so replaying the same snapshots replays the same decisions. Not thread-safe (the
 * reactive and predictive policies remember their recent recommendations).
 */
public sealed interface ScalingPolicy permits PredictiveScaling, FixedScaling, ReactiveHpaScaling {

    String name();

    long intervalMillis();

    ScalingDecision decide(PoolSnapshot pool);

    /** {@code predictive}, {@code reactive-hpa}, or {@code fixed:N} (N workers, always). */
    static ScalingPolicy parse(String name, ScalingConfig config) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("predictive")) {
            return new PredictiveScaling(config);
        }
        if (n.equals("reactive-hpa")) {
            return new ReactiveHpaScaling(config);
        }
        if (n.startsWith("fixed:")) {
            try {
                return new FixedScaling(config, Integer.parseInt(n.substring("fixed:".length())));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("scaling policy: fixed:N needs a worker count, was '" + name + "'");
            }
        }
        throw new IllegalArgumentException("scaling policy: unknown '" + name
                + "'; known: predictive, reactive-hpa, fixed:N");
    }

    /** The decision with its cost filled in: cold starts are the workers it adds. */
    static ScalingDecision decision(String policy, PoolSnapshot pool, int to, String rule, double rate, double lower,
                                    double upper, long horizonMillis, ScalingConfig config) {
        double utilisation = to == 0 ? 0 : rate * pool.meanServiceSeconds() / to;
        return new ScalingDecision(pool.atMillis(), policy, pool.workers(), to, new ScalingDecision.Reason(rule, rate,
                lower, upper, horizonMillis, config.sloMillis(), utilisation, Math.max(0, to - pool.workers()),
                config.perHour(to)));
    }
}
