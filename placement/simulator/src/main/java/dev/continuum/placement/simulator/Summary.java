package dev.continuum.placement.simulator;

/** Mean, median and 99th percentile of a distribution (seconds). */
public record Summary(double mean, double p50, double p99, double max) {
    static Summary of(LogHistogram h) {
        return new Summary(h.mean(), h.quantile(0.5), h.quantile(0.99), h.max());
    }
}
