package dev.continuum.placement.core.scaling;

/** The peak-sized baseline: the same number of workers all the time, so no cold start after the first. */
public record FixedScaling(ScalingConfig config, int workers) implements ScalingPolicy {
    public FixedScaling {
        if (workers < 1) {
            throw new IllegalArgumentException("fixed scaling needs at least one worker, was " + workers);
        }
    }

    @Override
    public String name() {
        return "fixed:" + workers;
    }

    @Override
    public long intervalMillis() {
        return config.intervalMillis();
    }

    @Override
    public ScalingDecision decide(PoolSnapshot pool) {
        return ScalingPolicy.decision(name(), pool, workers, "fixed for the peak", pool.recentRate(), Double.NaN,
                Double.NaN, 0, config);
    }
}
