package dev.continuum.placement.simulator;

import java.util.ArrayList;
import java.util.List;

/**
 * A piecewise-constant signal averaged into at most {@code maxBuckets} equal buckets. When time
 * runs past the last bucket, neighbours merge and the bucket width doubles: fixed memory however
 * long the trace.
 */
public final class TimeSeries {
    private final String name;
    private final double origin;
    private double width;
    private final double[] area;
    private final double[] covered;

    public TimeSeries(String name, double origin, double initialWidth, int maxBuckets) {
        this.name = name;
        this.origin = origin;
        this.width = initialWidth;
        this.area = new double[maxBuckets];
        this.covered = new double[maxBuckets];
    }

    public String name() { return name; }
    public double width() { return width; }

    /** The signal held {@code value} from t0 to t1. */
    public void add(double t0, double t1, double value) {
        if (t1 <= t0) {
            return;
        }
        while (t1 - origin > width * area.length) {
            coarsen();
        }
        double t = t0;
        while (t < t1) {
            int b = Math.min(area.length - 1, (int) ((t - origin) / width));
            double end = Math.min(t1, origin + (b + 1) * width);
            if (end <= t) {
                end = t1; // floating point at the last edge
            }
            area[b] += value * (end - t);
            covered[b] += end - t;
            t = end;
        }
    }

    private void coarsen() {
        int n = area.length;
        for (int i = 0; i < n / 2; i++) {
            area[i] = area[2 * i] + area[2 * i + 1];
            covered[i] = covered[2 * i] + covered[2 * i + 1];
        }
        for (int i = n / 2; i < n; i++) {
            area[i] = 0;
            covered[i] = 0;
        }
        width *= 2;
    }

    /** (bucket start relative to origin, time-weighted mean) for every bucket with data. */
    public List<double[]> points() {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < area.length; i++) {
            if (covered[i] > 0) {
                out.add(new double[]{i * width, area[i] / covered[i]});
            }
        }
        return out;
    }

    public double mean() {
        double a = 0;
        double c = 0;
        for (int i = 0; i < area.length; i++) {
            a += area[i];
            c += covered[i];
        }
        return c == 0 ? 0 : a / c;
    }

    public double peak() {
        double p = 0;
        for (double[] pt : points()) {
            p = Math.max(p, pt[1]);
        }
        return p;
    }
}
