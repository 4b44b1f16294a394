package dev.continuum.bench.measure;

import java.util.Arrays;
import java.util.List;

/** Nearest-rank percentiles of a sample (no interpolation: every value reported was observed). */
public record Percentiles(double p50, double p95, double p99, double max, int count) {

    public static Percentiles of(List<Double> values) {
        if (values.isEmpty()) {
            return new Percentiles(Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0);
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return new Percentiles(rank(sorted, 0.50), rank(sorted, 0.95), rank(sorted, 0.99), sorted[sorted.length - 1], sorted.length);
    }

    private static double rank(double[] sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
    }
}
