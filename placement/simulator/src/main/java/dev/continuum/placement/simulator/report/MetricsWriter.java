package dev.continuum.placement.simulator.report;

import dev.continuum.placement.core.policy.Shortage;
import dev.continuum.placement.simulator.FillExperiment;
import dev.continuum.placement.simulator.SimulationResult;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes every metric as JSON, a one-row-per-policy CSV, a long-form time-series CSV, and a text table. */
public final class MetricsWriter {
    private MetricsWriter() {
    }

    /** Scalar metrics of one result, in a stable order (columns of the CSV and the table). */
    public static Map<String, Object> scalars(SimulationResult r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("policy", r.policy());
        m.put("jobs", r.jobs());
        m.put("finished", r.finished());
        m.put("rejected", r.rejected());
        m.put("skipped_lines", r.skippedLines());
        m.put("filtered_records", r.filteredRecords());
        m.put("jct_mean_s", r.jct().mean());
        m.put("jct_p50_s", r.jct().p50());
        m.put("jct_p99_s", r.jct().p99());
        m.put("queue_mean_s", r.queueingDelay().mean());
        m.put("queue_p50_s", r.queueingDelay().p50());
        m.put("queue_p99_s", r.queueingDelay().p99());
        m.put("makespan_s", r.makespan());
        m.put("gpu_utilization", r.meanUtilization());
        m.put("fragmented_gpus_mean", r.meanFragmentedGpus());
        m.put("fragmented_gpus_peak", r.peakFragmentedGpus());
        m.put("queue_length_mean", r.meanQueueLength());
        m.put("preemptions", r.preemptions());
        m.put("migrations", r.migrations());
        m.put("lost_gpu_hours", r.lostGpuSeconds() / 3600);
        m.put("slo_attainment", r.sloAttainment());
        m.put("wall_ms", r.wallMillis());
        m.put("cpu_ms", r.cpuMillis());
        r.meanPartitionUtilization().forEach((p, u) -> m.put("utilization_" + p, u));
        return m;
    }

    public static void writeJson(List<SimulationResult> results, Path out) {
        List<Object> arr = new ArrayList<>();
        for (SimulationResult r : results) {
            Map<String, Object> o = new LinkedHashMap<>(scalars(r));
            Map<String, Object> series = new LinkedHashMap<>();
            r.series().forEach((name, pts) -> series.put(name, List.copyOf(pts)));
            o.put("series", series);
            o.put("jct_cdf", List.copyOf(r.jctCdf()));
            arr.add(o);
        }
        write(out, JsonText.of(arr));
    }

    public static void writeCsv(List<SimulationResult> results, Path out) {
        List<String> cols = new ArrayList<>();
        for (SimulationResult r : results) {
            for (String k : scalars(r).keySet()) {
                if (!cols.contains(k)) {
                    cols.add(k);
                }
            }
        }
        StringBuilder sb = new StringBuilder(String.join(",", cols)).append('\n');
        for (SimulationResult r : results) {
            Map<String, Object> m = scalars(r);
            List<String> row = new ArrayList<>();
            for (String c : cols) {
                row.add(format(m.get(c)));
            }
            sb.append(String.join(",", row)).append('\n');
        }
        write(out, sb.toString());
    }

    public static void writeSeriesCsv(List<SimulationResult> results, Path out) {
        StringBuilder sb = new StringBuilder("policy,series,t_s,value\n");
        for (SimulationResult r : results) {
            r.series().forEach((name, pts) -> {
                for (double[] p : pts) {
                    sb.append(r.policy()).append(',').append(name).append(',').append(format(p[0])).append(',')
                            .append(format(p[1])).append('\n');
                }
            });
            for (double[] p : r.jctCdf()) {
                sb.append(r.policy()).append(",jct_cdf,").append(format(p[0])).append(',').append(format(p[1])).append('\n');
            }
        }
        write(out, sb.toString());
    }

    /** Scalar metrics of one fill-experiment placement (columns of the fill run's CSV). */
    public static Map<String, Object> fillScalars(FillExperiment.Result f) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("placement", f.placement());
        m.put("repetitions", f.repetitions());
        m.put("unallocated_gpus_at_90pct", f.unallocatedAt(90));
        m.put("unallocated_gpus_at_100pct", f.unallocatedAt(100));
        m.put("unallocated_gpus_at_110pct", f.unallocatedAt(110));
        m.put("failed_tasks_mean", f.failedTasks());
        for (Shortage k : Shortage.values()) {
            m.put("dropped_" + k.key() + "_mean", f.droppedFor(k));
        }
        for (Shortage k : Shortage.values()) {
            m.put("dropped_" + k.key() + "_gpus_mean", f.droppedGpus().get(k));
        }
        m.put("wall_ms", f.wallMillis());
        return m;
    }

    /**
     * The fill run's metrics.json, metrics.csv and series.csv: unallocated GPUs per arrived %, and
     * per resource that ran out the tasks dropped so far ({@code dropped_cpu}, ...).
     */
    public static void writeFill(List<FillExperiment.Result> results, Path dir) {
        List<Object> arr = new ArrayList<>();
        StringBuilder csv = new StringBuilder();
        StringBuilder series = new StringBuilder("placement,series,arrived_pct,value\n");
        for (FillExperiment.Result f : results) {
            Map<String, Object> m = fillScalars(f);
            if (csv.isEmpty()) {
                csv.append(String.join(",", m.keySet())).append('\n');
            }
            csv.append(String.join(",", m.values().stream().map(MetricsWriter::format).toList())).append('\n');
            Map<String, Object> o = new LinkedHashMap<>(m);
            o.put("unallocated_gpus", curve(f, f.unallocatedGpus(), "unallocated_gpus", series));
            Map<String, Object> byResource = new LinkedHashMap<>();
            for (Shortage k : Shortage.values()) {
                byResource.put(k.key(), curve(f, f.dropped().get(k), "dropped_" + k.key(), series));
            }
            o.put("dropped_by_resource", byResource);
            arr.add(o);
        }
        write(dir.resolve("metrics.json"), JsonText.of(arr));
        write(dir.resolve("metrics.csv"), csv.toString());
        write(dir.resolve("series.csv"), series.toString());
    }

    /** [arrived %, value] pairs for the JSON, and the same as series.csv rows. */
    private static List<double[]> curve(FillExperiment.Result f, double[] values, String name, StringBuilder series) {
        List<double[]> pts = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            pts.add(new double[]{f.arrivedPercent()[i], values[i]});
            series.append(f.placement()).append(',').append(name).append(',').append(format(f.arrivedPercent()[i]))
                    .append(',').append(format(values[i])).append('\n');
        }
        return pts;
    }

    private static String format(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            return String.format(Locale.ROOT, "%.6g", d);
        }
        return v.toString();
    }

    private static void write(Path out, String s) {
        try {
            Files.writeString(out, s, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A plain-text comparison table for the terminal. */
    public static String table(List<SimulationResult> results) {
        String[] head = {"policy", "finished", "avg JCT", "p50 JCT", "p99 JCT", "avg queue", "p99 queue", "makespan",
                "GPU util", "frag GPUs", "preempt", "migr", "lost GPU-h", "SLO", "sim wall", "sim CPU"};
        List<String[]> rows = new ArrayList<>();
        rows.add(head);
        for (SimulationResult r : results) {
            rows.add(new String[]{r.policy(), String.valueOf(r.finished()), duration(r.jct().mean()), duration(r.jct().p50()),
                    duration(r.jct().p99()), duration(r.queueingDelay().mean()), duration(r.queueingDelay().p99()),
                    duration(r.makespan()), pct(r.meanUtilization()), String.format(Locale.ROOT, "%.1f", r.meanFragmentedGpus()),
                    String.valueOf(r.preemptions()), String.valueOf(r.migrations()),
                    String.format(Locale.ROOT, "%.1f", r.lostGpuSeconds() / 3600), pct(r.sloAttainment()),
                    r.wallMillis() + " ms", r.cpuMillis() + " ms"});
        }
        int[] w = new int[head.length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                w[i] = Math.max(w[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                String cell = i == 0 ? String.format("%-" + w[i] + "s", row[i]) : String.format("%" + w[i] + "s", row[i]);
                sb.append(cell).append(i + 1 < row.length ? "  " : "\n");
            }
        }
        return sb.toString();
    }

    public static String duration(double s) {
        if (s < 120) {
            return String.format(Locale.ROOT, "%.0f s", s);
        }
        if (s < 7200) {
            return String.format(Locale.ROOT, "%.1f min", s / 60);
        }
        if (s < 172_800) {
            return String.format(Locale.ROOT, "%.1f h", s / 3600);
        }
        return String.format(Locale.ROOT, "%.1f d", s / 86_400);
    }

    static String pct(double f) {
        return String.format(Locale.ROOT, "%.1f%%", f * 100);
    }
}
