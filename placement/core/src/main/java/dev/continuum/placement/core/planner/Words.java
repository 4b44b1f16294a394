package dev.continuum.placement.core.planner;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/** How decisions put numbers into words. Sets are sorted first: their own order changes from one JVM to the next. */
final class Words {
    private Words() {
    }

    static String millis(double ms) {
        if (ms >= 10_000) {
            return String.format(Locale.ROOT, "%.1f s", ms / 1000);
        }
        return String.format(Locale.ROOT, "%d ms", Math.round(ms));
    }

    static String bytes(long b) {
        if (b >= 1L << 30) {
            return String.format(Locale.ROOT, "%.1f GiB", b / (double) (1L << 30));
        }
        if (b >= 1L << 20) {
            return String.format(Locale.ROOT, "%.1f MiB", b / (double) (1L << 20));
        }
        if (b >= 1L << 10) {
            return String.format(Locale.ROOT, "%.1f KiB", b / (double) (1L << 10));
        }
        return b + " B";
    }

    static String rate(double bytesPerSecond) {
        double bits = bytesPerSecond * 8;
        if (bits >= 1e9) {
            return String.format(Locale.ROOT, "%.1f Gbit/s", bits / 1e9);
        }
        return String.format(Locale.ROOT, "%.1f Mbit/s", bits / 1e6);
    }

    static String sorted(Collection<String> names) {
        return new TreeSet<>(names).toString();
    }

    static String plural(long n, String one) {
        return n + " " + one + (n == 1 ? "" : "s");
    }

    /**
     * "site: reason" lines, sites that share a reason on one line ("gw-2, gw-3 and 40 other sites: offline"), so
     * 200 gateways ruled out alike read as one line.
     */
    static List<String> grouped(Map<String, String> reasonBySite) {
        Map<String, List<String>> sitesByReason = new LinkedHashMap<>();
        reasonBySite.forEach((site, reason) -> sitesByReason.computeIfAbsent(reason, r -> new ArrayList<>())
                .add(site));
        List<String> lines = new ArrayList<>();
        sitesByReason.forEach((reason, sites) -> {
            String who = sites.size() <= 3 ? String.join(", ", sites)
                    : String.join(", ", sites.subList(0, 2)) + " and " + (sites.size() - 2) + " other sites";
            lines.add(who + ": " + reason);
        });
        return lines;
    }
}
