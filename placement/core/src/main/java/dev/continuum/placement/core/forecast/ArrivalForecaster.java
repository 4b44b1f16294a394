package dev.continuum.placement.core.forecast;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Forecasts the arrival rate of inference jobs per (model, site) and per model over all sites, from the arrivals
 * it is told of: seasonal-naive, Holt–Winters with a daily season (once two days are seen), a damped trend, and a
 * recent mean that follows bursts, chosen per series and horizon by their recent sMAPE. Pure and deterministic —
 * time comes in with every call — so a replayed planner trace gives the same forecasts. Not thread-safe.
 */
public final class ArrivalForecaster {
    private final ForecastConfig config;
    private final Map<SeriesKey, SeriesForecaster> series = new LinkedHashMap<>();
    private long now = Long.MIN_VALUE;

    public ArrivalForecaster(ForecastConfig config) {
        this.config = config;
    }

    public ForecastConfig config() {
        return config;
    }

    /** A job for {@code model} arrived at {@code site} (blank when it has none yet) at {@code atMillis}. */
    public void arrival(String model, String site, long atMillis) {
        advanceTo(atMillis);
        seriesOf(SeriesKey.allSites(model)).arrival(atMillis);
        if (site != null && !site.isBlank()) {
            seriesOf(new SeriesKey(model, site)).arrival(atMillis);
        }
    }

    /** Time passed with or without arrivals: closes the buckets that ended, which scores and issues forecasts. */
    public void advanceTo(long nowMillis) {
        if (nowMillis <= now) {
            return;
        }
        boolean sameBucket = now != Long.MIN_VALUE
                && Math.floorDiv(nowMillis, config.bucketMillis()) == Math.floorDiv(now, config.bucketMillis());
        now = nowMillis;
        if (sameBucket) {
            // nothing ends within a bucket: a planner called thousands of times a minute pays once a minute
            return;
        }
        for (SeriesForecaster s : series.values()) {
            s.advanceTo(nowMillis);
        }
    }

    private SeriesForecaster seriesOf(SeriesKey key) {
        return series.computeIfAbsent(key, k -> {
            SeriesForecaster s = new SeriesForecaster(k, config);
            s.advanceTo(now);
            return s;
        });
    }

    /** The latest forecasts of every series, by model then site, each horizon in the configured order. */
    public List<Forecast> forecasts() {
        List<Forecast> out = new ArrayList<>();
        series.values().stream().sorted(Comparator.comparing((SeriesForecaster s) -> s.key().model())
                        .thenComparing(s -> s.key().site()))
                .forEach(s -> out.addAll(s.latest()));
        return out;
    }

    /** The latest forecast of one series at one horizon (in buckets), if the series has ended a bucket yet. */
    public Optional<Forecast> forecast(SeriesKey key, int horizonBuckets) {
        SeriesForecaster s = series.get(key);
        if (s == null) {
            return Optional.empty();
        }
        return s.latest().stream().filter(f -> f.horizonBuckets() == horizonBuckets).findFirst();
    }
}
