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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** One self-contained HTML page: the comparison table and inline SVG plots (no scripts, no CDN). */
public final class HtmlReport {
    private HtmlReport() {
    }

    public static String render(String title, String subtitle, List<SimulationResult> results,
                                List<FillExperiment.Result> fills) {
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
                .append(SvgPlot.esc(title)).append("</title><style>")
                .append("body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;font-size:13px}")
                .append("td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}th{background:#f4f4f4}")
                .append("td:first-child,th:first-child{text-align:left}.plots{display:flex;flex-wrap:wrap;gap:12px}")
                .append("</style></head><body>");
        sb.append("<h1>").append(SvgPlot.esc(title)).append("</h1><p>").append(SvgPlot.esc(subtitle)).append("</p>");
        if (!results.isEmpty()) {
            sb.append("<h2>Comparison</h2><table><tr>");
            Set<String> cols = new LinkedHashSet<>();
            results.forEach(r -> cols.addAll(MetricsWriter.scalars(r).keySet()));
            cols.forEach(c -> sb.append("<th>").append(SvgPlot.esc(c)).append("</th>"));
            sb.append("</tr>");
            for (SimulationResult r : results) {
                Map<String, Object> m = MetricsWriter.scalars(r);
                sb.append("<tr>");
                for (String c : cols) {
                    Object v = m.get(c);
                    String text = v instanceof Double d ? String.format(Locale.ROOT, "%.4g", d) : String.valueOf(v == null ? "" : v);
                    sb.append("<td>").append(SvgPlot.esc(text)).append("</td>");
                }
                sb.append("</tr>");
            }
            sb.append("</table><h2>Plots</h2><div class=\"plots\">");
            SvgPlot cdf = new SvgPlot("JCT CDF", "job completion time (log scale)", "fraction of jobs", true, false);
            results.forEach(r -> cdf.add(r.policy(), r.jctCdf()));
            sb.append(cdf.render());
            List<String> names = new ArrayList<>(results.getFirst().series().keySet());
            for (String name : names) {
                String label = switch (name) {
                    case "utilization" -> "GPU utilization over time";
                    case "queue_length" -> "Queue length over time";
                    case "fragmented_gpus" -> "Fragmented GPUs over time (FGD measure)";
                    default -> name.startsWith("utilization_") ? "Partition " + name.substring(12) + ": used / quota" : name;
                };
                SvgPlot p = new SvgPlot(label, "simulated time", name, false, true);
                results.forEach(r -> p.add(r.policy(), r.series().getOrDefault(name, List.of())));
                sb.append(p.render());
            }
            sb.append("</div>");
        }
        if (!fills.isEmpty()) {
            sb.append("<h2>Fill experiment (FGD methodology)</h2><p>Tasks sampled from the trace arrive and never ")
                    .append("leave; unplaceable tasks are dropped. Fewer unallocated GPUs at a given arrived load means less fragmentation.</p>");
            SvgPlot p = new SvgPlot("Unallocated GPUs vs arrived GPU demand", "arrived GPU demand (% of capacity)",
                    "unallocated GPUs", false, false);
            for (FillExperiment.Result f : fills) {
                List<double[]> pts = new ArrayList<>();
                for (int i = 0; i < f.arrivedPercent().length; i++) {
                    pts.add(new double[]{f.arrivedPercent()[i], f.unallocatedGpus()[i]});
                }
                p.add(f.placement(), pts);
            }
            sb.append(p.render());
            sb.append("<table><tr><th>placement</th><th>unallocated @90%</th><th>@100%</th><th>@110%</th><th>dropped tasks</th>");
            for (Shortage k : Shortage.values()) {
                sb.append("<th>dropped: ").append(k.key()).append("</th>");
            }
            sb.append("</tr>");
            for (FillExperiment.Result f : fills) {
                sb.append(String.format(Locale.ROOT, "<tr><td>%s</td><td>%.1f</td><td>%.1f</td><td>%.1f</td><td>%.0f</td>",
                        SvgPlot.esc(f.placement()), f.unallocatedAt(90), f.unallocatedAt(100), f.unallocatedAt(110), f.failedTasks()));
                for (Shortage k : Shortage.values()) {
                    sb.append(String.format(Locale.ROOT, "<td>%.0f (%.0f GPUs)</td>", f.droppedFor(k), f.droppedGpus().get(k)));
                }
                sb.append("</tr>");
            }
            sb.append("</table><h3>Dropped tasks by the resource that ran out</h3><p>For each task no node could take, ")
                    .append("the first of GPU share / whole GPUs, CPU, memory, GPU model that no node had together with ")
                    .append("the ones before it.</p><div class=\"plots\">");
            for (FillExperiment.Result f : fills) {
                sb.append(droppedPlot(f).render());
            }
            sb.append("</div>");
        }
        sb.append("</body></html>\n");
        return sb.toString();
    }

    /** Cumulative dropped tasks per resource that ran out, against arrived demand. */
    static SvgPlot droppedPlot(FillExperiment.Result f) {
        SvgPlot p = new SvgPlot("Dropped tasks by exhausted resource: " + f.placement(),
                "arrived GPU demand (% of capacity)", "dropped tasks", false, false);
        for (Shortage k : Shortage.values()) {
            if (f.droppedFor(k) > 0) {
                List<double[]> pts = new ArrayList<>();
                double[] counts = f.dropped().get(k);
                for (int i = 0; i < counts.length; i++) {
                    pts.add(new double[]{f.arrivedPercent()[i], counts[i]});
                }
                p.add(k.key(), pts);
            }
        }
        return p;
    }

    public static void write(Path out, String html) {
        try {
            Files.writeString(out, html, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
