package dev.continuum.placement.core.forecast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Counts one series' arrivals per bucket and, at each bucket's end, forecasts the horizons with every method,
 * scores the forecasts whose bucket has now come, and reports per horizon the method with the lowest recent sMAPE,
 * its interval taken from its own recent errors at that horizon. Pure: time comes in with every call.
 */
final class SeriesForecaster {
    private final SeriesKey key;
    private final ForecastConfig config;
    private final History history;
    private final List<Method> methods;
    /** Per horizon, per method: recent {actual, forecast} count pairs, newest last. */
    private final ArrayDeque<double[]>[][] errors;
    /** Per horizon: whether each recent reported interval held the actual count. */
    private final ArrayDeque<Boolean>[] held;
    /** Per horizon, forecasts waiting for their bucket, oldest first (so in the order their buckets come). */
    private final ArrayDeque<Issued>[] pending;
    private long bucket = Long.MIN_VALUE;
    private double count;
    private List<Forecast> latest = List.of();

    private record Issued(long target, int horizonIndex, double[] points, double lower, double upper) {
    }

    @SuppressWarnings("unchecked")
    SeriesForecaster(SeriesKey key, ForecastConfig config) {
        this.key = key;
        this.config = config;
        this.history = new History(Math.max(2 * config.seasonBuckets(), 2 * RecentMeanWithBursts.BASELINE));
        this.methods = List.of(new RecentMeanWithBursts(history), new DampedTrend(),
                new SeasonalNaive(history, config.seasonBuckets()), new HoltWinters(history, config.seasonBuckets()));
        int horizons = config.horizons().size();
        this.errors = new ArrayDeque[horizons][methods.size()];
        this.held = new ArrayDeque[horizons];
        this.pending = new ArrayDeque[horizons];
        for (int h = 0; h < horizons; h++) {
            held[h] = new ArrayDeque<>();
            pending[h] = new ArrayDeque<>();
            for (int m = 0; m < methods.size(); m++) {
                errors[h][m] = new ArrayDeque<>();
            }
        }
    }

    void arrival(long atMillis) {
        advanceTo(atMillis);
        count++;
    }

    /** Ends every bucket before the one {@code nowMillis} falls in. */
    void advanceTo(long nowMillis) {
        long now = Math.floorDiv(nowMillis, config.bucketMillis());
        if (bucket == Long.MIN_VALUE) {
            bucket = now;
            return;
        }
        // after a long silence only its last stretch can matter to a forecast: the buckets before it issue none
        long skipTo = now - (2L * config.seasonBuckets() + config.longestHorizon());
        while (bucket < now) {
            close(bucket < skipTo);
            bucket++;
            count = 0;
        }
    }

    private void close(boolean quietly) {
        history.add(count);
        for (Method m : methods) {
            m.observe(count);
        }
        score();
        if (!quietly) {
            issue();
        } else {
            for (ArrayDeque<Issued> waiting : pending) {
                waiting.clear();
            }
        }
    }

    private void score() {
        for (ArrayDeque<Issued> waiting : pending) {
            while (!waiting.isEmpty() && waiting.peekFirst().target() <= bucket) {
                score(waiting.pollFirst());
            }
        }
    }

    private void score(Issued f) {
        if (f.target() != bucket) {
            return;
        }
        for (int m = 0; m < methods.size(); m++) {
            if (!Double.isNaN(f.points()[m])) {
                keep(errors[f.horizonIndex()][m], new double[] {count, f.points()[m]});
            }
        }
        keep(held[f.horizonIndex()], count >= f.lower() && count <= f.upper());
    }

    private <T> void keep(ArrayDeque<T> window, T value) {
        window.addLast(value);
        if (window.size() > config.errorWindow()) {
            window.removeFirst();
        }
    }

    private void issue() {
        List<Forecast> out = new ArrayList<>();
        double bucketSeconds = config.bucketMillis() / 1000.0;
        for (int hi = 0; hi < config.horizons().size(); hi++) {
            int h = config.horizons().get(hi);
            double[] points = new double[methods.size()];
            for (int m = 0; m < methods.size(); m++) {
                points[m] = methods.get(m).ready() ? methods.get(m).forecast(h) : Double.NaN;
            }
            double[][] scores = new double[methods.size()][];
            for (int m = 0; m < methods.size(); m++) {
                scores[m] = smape(hi, m);
            }
            int best = best(points, scores);
            double point = points[best];
            double[] interval = interval(errors[hi][best], point);
            pending[hi].addLast(new Issued(bucket + h, hi, points, interval[0], interval[1]));
            double[] score = scores[best];
            long covered = held[hi].stream().filter(b -> b).count();
            out.add(new Forecast(key, h, h * config.bucketMillis(), point / bucketSeconds, interval[0] / bucketSeconds,
                    interval[1] / bucketSeconds, methods.get(best).name(), score[0],
                    held[hi].isEmpty() ? Double.NaN : (double) covered / held[hi].size(), (int) score[1],
                    count / bucketSeconds));
        }
        latest = List.copyOf(out);
    }

    /** The ready method with the lowest sMAPE at this horizon; before any is scored, the first ready one. */
    private int best(double[] points, double[][] scores) {
        int best = -1;
        double bestScore = Double.POSITIVE_INFINITY;
        for (int m = 0; m < methods.size(); m++) {
            if (Double.isNaN(points[m])) {
                continue;
            }
            double[] s = scores[m];
            double score = s[1] < Math.min(10, config.errorWindow()) ? Double.MAX_VALUE : s[0];
            if (best < 0 || score < bestScore) {
                best = m;
                bestScore = score;
            }
        }
        return best;
    }

    /** {sMAPE, forecasts scored} of a method at a horizon; sMAPE is NaN before any. */
    private double[] smape(int horizonIndex, int method) {
        ArrayDeque<double[]> window = errors[horizonIndex][method];
        if (window.isEmpty()) {
            return new double[] {Double.NaN, 0};
        }
        double sum = 0;
        for (double[] pair : window) {
            double denominator = Math.abs(pair[0]) + Math.abs(pair[1]);
            sum += denominator == 0 ? 0 : 2 * Math.abs(pair[0] - pair[1]) / denominator;
        }
        return new double[] {sum / window.size(), window.size()};
    }

    /** The configured quantiles of the recent errors around the point; Poisson's spread until there are 20 of them. */
    private double[] interval(ArrayDeque<double[]> window, double point) {
        double tail = (1 - config.coverage()) / 2;
        if (window.size() < 20) {
            double z = 1.645;
            double spread = z * Math.sqrt(Math.max(point, 1));
            return new double[] {Math.max(0, point - spread), point + spread};
        }
        double[] sorted = window.stream().mapToDouble(pair -> pair[0] - pair[1]).toArray();
        Arrays.sort(sorted);
        double low = sorted[(int) Math.floor(tail * (sorted.length - 1))];
        double high = sorted[(int) Math.ceil((1 - tail) * (sorted.length - 1))];
        return new double[] {Math.max(0, point + low), Math.max(0, point + high)};
    }

    List<Forecast> latest() {
        return latest;
    }

    SeriesKey key() {
        return key;
    }
}
