package dev.continuum.placement.simulator.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A small line chart rendered as inline SVG: no scripts, no external assets. */
public final class SvgPlot {
    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int W = 640;
    private static final int H = 300;
    private static final int LEFT = 64;
    private static final int RIGHT = 150;
    private static final int TOP = 28;
    private static final int BOTTOM = 44;

    private record Series(String name, List<double[]> points) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final boolean step;
    private final List<Series> series = new ArrayList<>();

    public SvgPlot(String title, String xLabel, String yLabel, boolean logX, boolean step) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
        this.step = step;
    }

    public SvgPlot add(String name, List<double[]> points) {
        series.add(new Series(name, points));
        return this;
    }

    private double tx(double x) {
        return logX ? Math.log10(Math.max(x, 1)) : x;
    }

    public String render() {
        double minX = Double.POSITIVE_INFINITY;
        double maxX = Double.NEGATIVE_INFINITY;
        double maxY = 0;
        for (Series s : series) {
            for (double[] p : s.points) {
                minX = Math.min(minX, tx(p[0]));
                maxX = Math.max(maxX, tx(p[0]));
                maxY = Math.max(maxY, p[1]);
            }
        }
        if (!Double.isFinite(minX)) {
            minX = 0;
            maxX = 1;
        }
        if (maxX <= minX) {
            maxX = minX + 1;
        }
        maxY = maxY <= 0 ? 1 : niceCeil(maxY);
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"11\">",
                W, H, W, H));
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"16\" font-size=\"13\" font-weight=\"bold\">%s</text>",
                LEFT, esc(title)));
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>",
                LEFT, TOP, pw, ph));
        for (int i = 0; i <= 4; i++) {
            double y = maxY * i / 4;
            double py = TOP + ph - ph * (double) i / 4;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#eee\"/>",
                    LEFT, LEFT + pw, py, py));
            sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
                    LEFT - 4, py + 4, num(y)));
        }
        for (int i = 0; i <= 5; i++) {
            double x = minX + (maxX - minX) * i / 5;
            double px = LEFT + pw * (double) i / 5;
            String label = logX ? MetricsWriter.duration(Math.pow(10, x)) : xTick(x, maxX);
            sb.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                    px, TOP + ph + 14, esc(label)));
        }
        sb.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                LEFT + pw / 2, H - 8, esc(xLabel)));
        sb.append(String.format(Locale.ROOT,
                "<text x=\"12\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 12 %d)\">%s</text>",
                TOP + ph / 2, TOP + ph / 2, esc(yLabel)));
        for (int si = 0; si < series.size(); si++) {
            Series s = series.get(si);
            String color = COLORS[si % COLORS.length];
            StringBuilder path = new StringBuilder();
            double lastY = Double.NaN;
            for (double[] p : s.points) {
                double px = LEFT + pw * (tx(p[0]) - minX) / (maxX - minX);
                double py = TOP + ph - ph * Math.min(p[1], maxY) / maxY;
                if (path.isEmpty()) {
                    path.append(String.format(Locale.ROOT, "M%.1f %.1f", px, py));
                } else if (step && !Double.isNaN(lastY)) {
                    path.append(String.format(Locale.ROOT, " L%.1f %.1f L%.1f %.1f", px, lastY, px, py));
                } else {
                    path.append(String.format(Locale.ROOT, " L%.1f %.1f", px, py));
                }
                lastY = py;
            }
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"/>",
                    path, color));
            int ly = TOP + 12 + si * 16;
            sb.append(String.format(Locale.ROOT,
                    "<line x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">%s</text>",
                    W - RIGHT + 10, W - RIGHT + 28, ly, ly, color, W - RIGHT + 32, ly + 4, esc(s.name)));
        }
        sb.append("</svg>");
        return sb.toString();
    }

    private static String xTick(double x, double max) {
        if (max > 172_800) {
            return String.format(Locale.ROOT, "%.0f d", x / 86_400);
        }
        if (max > 7_200) {
            return String.format(Locale.ROOT, "%.0f h", x / 3600);
        }
        return num(x);
    }

    private static double niceCeil(double v) {
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[]{1, 2, 2.5, 5, 10}) {
            if (m * mag >= v) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    private static String num(double v) {
        if (Math.abs(v) >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (Math.abs(v) >= 10 || v == 0) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    public static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
