package dev.continuum.placement.core.scaling;

import java.util.ArrayDeque;

/**
 * The recommendations of the last {@code windowMillis}: a lower count is applied only as far as every one of them
 * allows (HPA's scale-down stabilisation; the predictive policy's hold). A pool that was running before the first
 * decision counts as having recommended what it has, as a Deployment that has been up for a while would have.
 */
final class ScaleDownWindow {
    private final long windowMillis;
    /** {atMillis, workers}, oldest first. */
    private final ArrayDeque<long[]> recommendations = new ArrayDeque<>();
    private boolean started;

    ScaleDownWindow(long windowMillis) {
        this.windowMillis = windowMillis;
    }

    /** Records {@code desired} at {@code now} and returns the count to apply: never below the window's highest. */
    int apply(long now, int current, int desired) {
        if (!started) {
            started = true;
            recommendations.addLast(new long[] {now, current});
        }
        while (!recommendations.isEmpty() && recommendations.peekFirst()[0] <= now - windowMillis) {
            recommendations.pollFirst();
        }
        recommendations.addLast(new long[] {now, desired});
        if (desired >= current) {
            return desired;
        }
        return (int) Math.min(current, recommendations.stream().mapToLong(r -> r[1]).max().orElse(desired));
    }
}
