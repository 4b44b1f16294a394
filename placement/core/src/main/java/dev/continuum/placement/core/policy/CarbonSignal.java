package dev.continuum.placement.core.policy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A carbon-intensity or energy-price series per site: piecewise constant, each point holding from its time until
 * the next one (the last holds for ever, the first also before it). Site {@code *} is the series of every site
 * without its own. Units are the caller's (gCO2/kWh, €/MWh): the green policy only compares values.
 */
public record CarbonSignal(Map<String, List<Point>> bySite) {
    /** From {@code epochSeconds} on, the signal is {@code value}. */
    public record Point(long epochSeconds, double value) {}

    public static final CarbonSignal NONE = new CarbonSignal(Map.of());
    public static final String EVERY_SITE = "*";

    public CarbonSignal {
        Map<String, List<Point>> sorted = new TreeMap<>();
        bySite.forEach((site, points) -> {
            List<Point> p = new ArrayList<>(points);
            p.sort((a, b) -> Long.compare(a.epochSeconds(), b.epochSeconds()));
            if (!p.isEmpty()) {
                sorted.put(site, List.copyOf(p));
            }
        });
        bySite = Collections.unmodifiableMap(sorted);
    }

    public boolean covers(String site) {
        return bySite.containsKey(site) || bySite.containsKey(EVERY_SITE);
    }

    private List<Point> series(String site) {
        List<Point> s = bySite.get(site);
        return s != null ? s : bySite.getOrDefault(EVERY_SITE, List.of());
    }

    public double valueAt(String site, double t) {
        List<Point> s = series(site);
        double v = s.isEmpty() ? 0 : s.getFirst().value();
        for (Point p : s) {
            if (p.epochSeconds() > t) {
                break;
            }
            v = p.value();
        }
        return v;
    }

    /** The time-weighted mean over [from, to) (the value at {@code from} when the span is empty). */
    public double average(String site, double from, double to) {
        if (to <= from) {
            return valueAt(site, from);
        }
        double area = 0;
        double t = from;
        for (Point p : series(site)) {
            if (p.epochSeconds() <= t) {
                continue;
            }
            double end = Math.min(p.epochSeconds(), to);
            area += valueAt(site, t) * (end - t);
            t = end;
            if (t >= to) {
                break;
            }
        }
        area += valueAt(site, t) * (to - t);
        return area / (to - from);
    }

    /**
     * The start in [earliest, latest] whose run of {@code seconds} has the lowest mean signal: {@code earliest}
     * or a time the signal changes. Ties go to the earlier start.
     */
    public double bestStart(String site, double earliest, double latest, double seconds) {
        double best = earliest;
        double bestMean = average(site, earliest, earliest + seconds);
        for (Point p : series(site)) {
            double t = p.epochSeconds();
            if (t <= earliest || t > latest) {
                continue;
            }
            double mean = average(site, t, t + seconds);
            if (mean < bestMean) {
                best = t;
                bestMean = mean;
            }
        }
        return best;
    }
}
