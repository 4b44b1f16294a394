package dev.continuum.placement.core.scaling;

import java.util.Locale;

/**
 * One tick's decision for a pool: from {@code from} workers to {@code to} (equal when it holds), and why. Same
 * snapshots in the same order give the same decisions, so a recorded run replays exactly.
 */
public record ScalingDecision(long atMillis, String policy, int from, int to, Reason reason) {

    /**
     * Why: the {@code rule} that decided; the rate it sized for (per second) with the forecast's interval and
     * horizon (NaN when no forecast was used); the wait SLO; the utilisation expected at {@code to}; and the cost:
     * workers it starts (each a cold start) and worker-seconds per hour at {@code to}.
     */
    public record Reason(String rule, double rate, double lower, double upper, long horizonMillis, long sloMillis,
                         double expectedUtilisation, int coldStarts, double workerSecondsPerHour) {
    }

    public boolean changes() {
        return to != from;
    }

    /** The decision in words, for logs and `explain`. */
    public String explain() {
        String forecast = Double.isNaN(reason.lower()) ? "" : String.format(Locale.ROOT,
                " (forecast %.2f-%.2f/s at %d s)", reason.lower(), reason.upper(), reason.horizonMillis() / 1000);
        return String.format(Locale.ROOT, "%s: %d -> %d workers by %s; sized for %.2f req/s%s, wait SLO %d ms, "
                        + "expected utilisation %.0f %%; cost %d cold start(s), %.0f worker-s/h",
                policy, from, to, reason.rule(), reason.rate(), forecast, reason.sloMillis(),
                100 * reason.expectedUtilisation(), reason.coldStarts(), reason.workerSecondsPerHour());
    }
}
