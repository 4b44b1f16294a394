package dev.continuum.placement.simulator;

/**
 * Streaming distribution of non-negative values with about 1% relative error, in fixed memory:
 * bucket i holds values in [1.01^(i-1), 1.01^i) seconds; values below one second share bucket 0.
 * Keeps percentiles of a million-job run without keeping a million values.
 */
public final class LogHistogram {
    private static final double GROWTH = 1.01;
    private static final double LOG_GROWTH = Math.log(GROWTH);
    private static final int BUCKETS = 3000; // 1.01^3000 s is far beyond any trace
    private final long[] counts = new long[BUCKETS];
    private long count;
    private double sum;
    private double max;

    public void add(double v) {
        double x = Math.max(0, v);
        counts[bucket(x)]++;
        count++;
        sum += x;
        max = Math.max(max, x);
    }

    private static int bucket(double x) {
        if (x < 1) {
            return 0;
        }
        return Math.min(BUCKETS - 1, 1 + (int) (Math.log(x) / LOG_GROWTH));
    }

    private static double upper(int bucket) {
        return bucket == 0 ? 1 : Math.pow(GROWTH, bucket);
    }

    public long count() { return count; }
    public double mean() { return count == 0 ? 0 : sum / count; }
    public double max() { return max; }

    /** The value at quantile q (0..1): upper edge of its bucket, capped at the true maximum. */
    public double quantile(double q) {
        if (count == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * count);
        long seen = 0;
        for (int i = 0; i < BUCKETS; i++) {
            seen += counts[i];
            if (seen >= Math.max(1, rank)) {
                return Math.min(max, i == 0 ? Math.min(1, max) : upper(i));
            }
        }
        return max;
    }

    /** Points (value, cumulative fraction) of the CDF, one per non-empty bucket. */
    public double[][] cdf() {
        int nonEmpty = 0;
        for (long c : counts) {
            if (c > 0) {
                nonEmpty++;
            }
        }
        double[][] out = new double[nonEmpty][];
        long seen = 0;
        int k = 0;
        for (int i = 0; i < BUCKETS; i++) {
            if (counts[i] > 0) {
                seen += counts[i];
                out[k++] = new double[]{Math.min(max, upper(i)), (double) seen / count};
            }
        }
        return out;
    }
}
