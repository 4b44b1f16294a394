package dev.continuum.placement.core.scaling;

/**
 * Kubernetes' Horizontal Pod Autoscaler rule on a utilisation metric, as the reactive baseline: every sync period
 * desired = ceil(ready workers x utilisation / target) (starting workers count as idle, as HPA counts unready pods
 * at 0 % when scaling up), nothing when the ratio is within the tolerance of 1, scale-up at most doubling or +4 per
 * period (HPA's default policy), and scale-down to the highest recommendation of the stabilisation window.
 */
public final class ReactiveHpaScaling implements ScalingPolicy {
    private final ScalingConfig config;
    private final ScaleDownWindow window;

    public ReactiveHpaScaling(ScalingConfig config) {
        this.config = config;
        this.window = new ScaleDownWindow(config.stabilisationMillis());
    }

    @Override
    public String name() {
        return "reactive-hpa";
    }

    @Override
    public long intervalMillis() {
        return config.intervalMillis();
    }

    @Override
    public ScalingDecision decide(PoolSnapshot pool) {
        int current = pool.workers();
        double busy = pool.ready() * pool.utilisation();
        double ratio = current == 0 ? Double.POSITIVE_INFINITY : busy / (current * config.hpaTargetUtilisation());
        int desired = Math.abs(ratio - 1) <= config.hpaTolerance() || pool.ready() == 0 && current > 0
                ? current
                : (int) Math.ceil(busy / config.hpaTargetUtilisation());
        desired = Math.clamp(desired, Math.max(1, config.warmMinimum()), config.maxWorkers());
        desired = Math.min(desired, Math.max(2 * current, current + 4));
        int to = window.apply(pool.atMillis(), current, desired);
        String rule = "HPA: utilisation " + Math.round(100 * pool.utilisation()) + " % of "
                + pool.ready() + " ready, target " + Math.round(100 * config.hpaTargetUtilisation()) + " %";
        if (to > desired) {
            rule += ", held by the " + config.stabilisationMillis() / 1000 + " s stabilisation window";
        }
        return ScalingPolicy.decision(name(), pool, to, rule, pool.recentRate(), Double.NaN, Double.NaN, 0, config);
    }
}
