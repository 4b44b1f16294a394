package dev.continuum.placement.core.scaling;

import dev.continuum.placement.core.forecast.Forecast;

/**
 * Sizes the pool for the arrivals it will have to serve by the time a worker started now is ready: the highest
 * upper bound of the forecasts whose bucket begins within a cold start and a tick (or the rate just seen, if
 * higher: a forecast that missed a burst must not hold capacity below what arrived in the last bucket), plus the queue drained
 * over one cold start; then the fewest workers that keep the wait SLO by Erlang C, at least the warm minimum.
 * More workers are started at once; fewer only once every recommendation of the last {@code scaleDownHoldMillis}
 * agrees — the forecast already looks a cold start ahead, so the hold only damps noise, and is shorter than HPA's.
 */
public final class PredictiveScaling implements ScalingPolicy {
    private final ScalingConfig config;
    private final ScaleDownWindow window;

    public PredictiveScaling(ScalingConfig config) {
        this.config = config;
        this.window = new ScaleDownWindow(config.scaleDownHoldMillis());
    }

    @Override
    public String name() {
        return "predictive";
    }

    @Override
    public long intervalMillis() {
        return config.intervalMillis();
    }

    @Override
    public ScalingDecision decide(PoolSnapshot pool) {
        Forecast used = null;
        long reach = config.coldStartMillis() + config.intervalMillis();
        for (Forecast f : pool.forecasts()) {
            long bucketStart = f.horizonMillis() - f.horizonMillis() / Math.max(1, f.horizonBuckets());
            if (bucketStart <= reach && (used == null || f.upper() > used.upper())) {
                used = f;
            }
        }
        double drain = pool.queued() / Math.max(1.0, config.coldStartMillis() / 1000.0);
        double forecastRate = used == null ? 0 : used.upper();
        // the last whole bucket rather than the last tick: a 15 s count of Poisson arrivals is too noisy to chase
        double seen = used == null ? pool.recentRate() : used.actualRate();
        double rate = Math.max(forecastRate, seen) + drain;
        String rule = used != null && forecastRate >= seen
                ? "forecast upper bound (" + used.method() + ")"
                : "rate just seen (above the forecast)";
        if (drain > 0) {
            rule += " + queue of " + pool.queued();
        }
        int desired = QueueSizing.workersFor(rate, pool.meanServiceSeconds(), config.sloMillis() / 1000.0,
                config.sloTarget(), config.maxWorkers());
        if (desired < config.warmMinimum()) {
            desired = config.warmMinimum();
            rule += ", warm minimum";
        }
        int to = window.apply(pool.atMillis(), pool.workers(), desired);
        if (to > desired) {
            rule += ", lower count held " + config.scaleDownHoldMillis() / 1000 + " s";
        }
        return used == null
                ? ScalingPolicy.decision(name(), pool, to, rule, rate, Double.NaN, Double.NaN, 0, config)
                : ScalingPolicy.decision(name(), pool, to, rule, rate, used.lower(), used.upper(), used.horizonMillis(),
                config);
    }
}
