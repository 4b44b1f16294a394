package dev.continuum.placement.simulator.cli;

import dev.continuum.placement.core.forecast.ForecastConfig;
import dev.continuum.placement.core.scaling.FixedScaling;
import dev.continuum.placement.core.scaling.QueueSizing;
import dev.continuum.placement.core.scaling.ScalingConfig;
import dev.continuum.placement.core.scaling.ScalingPolicy;
import dev.continuum.placement.simulator.ScalingSimulator;
import dev.continuum.placement.simulator.ScalingSimulator.Request;
import dev.continuum.placement.simulator.ScalingSimulator.Result;
import dev.continuum.placement.simulator.report.HtmlReport;
import dev.continuum.placement.simulator.report.SvgPlot;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;

/**
 * {@code simulate --arrivals}: one inference pool under each scaling policy on the same arrivals; prints SLO
 * attainment, latency, worker-seconds, cold starts and scaling actions per policy, and writes the rate, forecast
 * and capacity over time ({@code scaling-timeline.csv}, drawn in {@code scaling.html}) and every decision with its
 * reason ({@code scaling-decisions.csv}).
 */
final class ScalingEvaluation {
    private static final int PLOT_POINTS = 600;
    private ScalingEvaluation() {
    }

    /**
     * The forecaster at {@code bucketMillis} with a (time-scaled) day as its season, forecasting every bucket up to
     * the one a worker started now would be ready in (a cold start and a tick ahead).
     */
    static ForecastConfig forecastConfig(long bucketMillis, ScalingConfig config, double timeScale) {
        int reach = (int) ((config.coldStartMillis() + config.intervalMillis()) / bucketMillis) + 1;
        int season = (int) Math.max(2, Math.round(86_400_000 / timeScale / bucketMillis));
        return new ForecastConfig(bucketMillis, IntStream.rangeClosed(1, reach).boxed().toList(), season, 120, 0.9);
    }

    /** Workers that keep the wait SLO at the trace's busiest minute: what a fixed pool sized for the peak needs. */
    static int peakWorkers(List<Request> requests, ScalingConfig config) {
        long peak = 0;
        int from = 0;
        for (int to = 0; to < requests.size(); to++) {
            while (requests.get(to).atMillis() - requests.get(from).atMillis() >= 60_000) {
                from++;
            }
            peak = Math.max(peak, to - from + 1);
        }
        return sized(peak / 60.0, requests, config);
    }

    /**
     * Workers that keep the wait SLO at the first minute's rate: the pools under the scaling policies start with
     * these warm, as if they had been running before the trace began, so a start from nothing is not what is compared.
     */
    static int startWorkers(List<Request> requests, ScalingConfig config) {
        long first = requests.stream().takeWhile(r -> r.atMillis() < requests.getFirst().atMillis() + 60_000).count();
        return Math.max(config.warmMinimum(), sized(first / 60.0, requests, config));
    }

    private static int sized(double rate, List<Request> requests, ScalingConfig config) {
        double service = requests.stream().mapToLong(Request::serviceMillis).average().orElse(1) / 1000;
        return Math.max(1, QueueSizing.workersFor(rate, service, config.sloMillis() / 1000.0, config.sloTarget(),
                config.maxWorkers()));
    }

    static List<Result> run(List<Request> requests, List<String> policies, ScalingConfig config,
                            ForecastConfig forecast) {
        double prior = requests.stream().limit(100).mapToLong(Request::serviceMillis).average().orElse(1000) / 1000;
        List<Result> results = new ArrayList<>();
        int start = requests.isEmpty() ? 1 : startWorkers(requests, config);
        for (String p : policies) {
            String name = p.trim().equals("fixed") ? "fixed:" + (requests.isEmpty() ? 1 : peakWorkers(requests, config)) : p;
            ScalingPolicy policy = ScalingPolicy.parse(name, config);
            int initial = policy instanceof FixedScaling f ? f.workers() : start;
            results.add(ScalingSimulator.run(requests, policy, config, forecast, prior, initial));
        }
        return results;
    }

    static void print(List<Result> results, PrintWriter o) {
        o.printf(Locale.ROOT, "%-14s %9s %8s %8s %14s %11s %8s %6s%n", "policy", "SLO met", "p95 s", "p99 s",
                "worker-s", "cold starts", "actions", "peak");
        for (Result r : results) {
            o.printf(Locale.ROOT, "%-14s %8.2f%% %8.2f %8.2f %14.0f %11d %8d %6d%n", r.policy(),
                    100 * r.sloAttainment(), r.p95Seconds(), r.p99Seconds(), r.workerSeconds(), r.coldStarts(),
                    r.scalingActions(), r.peakWorkers());
        }
    }

    static void write(String subtitle, List<Result> results, Path out) throws IOException {
        Files.createDirectories(out);
        HtmlReport.write(out.resolve("scaling.html"), html(subtitle, results));
        try (Writer w = Files.newBufferedWriter(out.resolve("scaling-timeline.csv"), StandardCharsets.UTF_8)) {
            w.write("policy,time_s,rate,forecast,forecast_lower,forecast_upper,workers,ready,capacity_rate\n");
            for (Result r : results) {
                for (ScalingSimulator.Sample s : r.timeline()) {
                    w.write(String.format(Locale.ROOT, "%s,%.3f,%s,%s,%s,%s,%d,%d,%s%n", r.policy(),
                            s.atMillis() / 1000.0, num(s.rate()), num(s.forecast()), num(s.lower()), num(s.upper()),
                            s.workers(), s.ready(), num(s.capacityRate())));
                }
            }
        }
        try (Writer w = Files.newBufferedWriter(out.resolve("scaling-decisions.csv"), StandardCharsets.UTF_8)) {
            w.write("policy,time_s,from,to,reason\n");
            for (Result r : results) {
                for (var d : r.decisions()) {
                    if (d.changes()) {
                        w.write(String.format(Locale.ROOT, "%s,%.3f,%d,%d,\"%s\"%n", r.policy(), d.atMillis() / 1000.0,
                                d.from(), d.to(), d.explain().replace("\"", "\"\"")));
                    }
                }
            }
        }
    }

    /** One chart per policy of the rate seen, the forecast for that bucket and the rate the ready workers can serve. */
    static String html(String subtitle, List<Result> results) {
        StringBuilder sb = new StringBuilder("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<title>Scaling</title><style>body{font-family:sans-serif;margin:24px;color:#222}"
                + ".plots{display:flex;flex-wrap:wrap;gap:12px}</style></head><body><h1>Scaling</h1><p>")
                .append(SvgPlot.esc(subtitle)).append("</p><div class=\"plots\">");
        for (Result r : results) {
            SvgPlot plot = new SvgPlot(r.policy() + ": rate, forecast and capacity", "time (s)", "requests/s", false,
                    false);
            plot.add("rate", averaged(r.timeline(), ScalingSimulator.Sample::rate));
            plot.add("forecast", averaged(r.timeline(), ScalingSimulator.Sample::forecast));
            plot.add("capacity", averaged(r.timeline(), ScalingSimulator.Sample::capacityRate));
            sb.append(plot.render());
        }
        return sb.append("</div></body></html>\n").toString();
    }

    /** At most {@code PLOT_POINTS} points: the mean of each run of ticks, leaving out ticks without a value. */
    private static List<double[]> averaged(List<ScalingSimulator.Sample> timeline,
                                           ToDoubleFunction<ScalingSimulator.Sample> value) {
        int per = Math.max(1, Math.ceilDiv(timeline.size(), PLOT_POINTS));
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < timeline.size(); i += per) {
            double sum = 0;
            int n = 0;
            for (ScalingSimulator.Sample s : timeline.subList(i, Math.min(timeline.size(), i + per))) {
                double v = value.applyAsDouble(s);
                if (!Double.isNaN(v)) {
                    sum += v;
                    n++;
                }
            }
            if (n > 0) {
                out.add(new double[] {timeline.get(i).atMillis() / 1000.0, sum / n});
            }
        }
        return out;
    }

    private static String num(double v) {
        return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }
}
