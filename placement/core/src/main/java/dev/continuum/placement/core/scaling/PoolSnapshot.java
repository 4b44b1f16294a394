package dev.continuum.placement.core.scaling;

import dev.continuum.placement.core.forecast.Forecast;

import java.util.List;

/**
 * What a scaling policy sees of one model's worker pool at a tick: {@code workers} provisioned (starting ones
 * included, as a Deployment's replicas), {@code ready} of them serving, the share of the ready workers' time spent
 * serving since the last tick ({@code utilisation}, what HPA's resource metric measures), requests {@code queued},
 * the arrival rate since the last tick (per second), the mean service time of recent requests, and the
 * forecaster's latest forecasts of this pool's arrivals (empty until it has closed a bucket).
 */
public record PoolSnapshot(long atMillis, int workers, int ready, double utilisation, int queued, double recentRate,
                           double meanServiceSeconds, List<Forecast> forecasts) {
    public PoolSnapshot {
        forecasts = List.copyOf(forecasts);
    }
}
