package dev.continuum.placement.core.scaling;

/**
 * Erlang C (M/M/c): how many workers keep the chance that a request waits longer than the SLO under the allowed
 * miss share, at a given arrival rate and mean service time. Poisson arrivals and exponential service are an
 * approximation; the forecast's upper interval, not its point, is what absorbs the error.
 */
public final class QueueSizing {
    private QueueSizing() {
    }

    /** P(wait > waitSeconds) with {@code workers} servers; 1 when they cannot keep up. */
    public static double waitBeyond(int workers, double rate, double serviceSeconds, double waitSeconds) {
        if (rate <= 0) {
            return 0;
        }
        double load = rate * serviceSeconds;
        if (workers <= load) {
            return 1;
        }
        // Erlang B by its recurrence (stable for hundreds of servers), then Erlang C from it
        double b = 1;
        for (int k = 1; k <= workers; k++) {
            b = load * b / (k + load * b);
        }
        double c = workers * b / (workers - load * (1 - b));
        return c * Math.exp(-(workers - load) / serviceSeconds * waitSeconds);
    }

    /** The fewest workers (at most {@code max}) that keep P(wait > SLO) at or under {@code 1 - target}. */
    public static int workersFor(double rate, double serviceSeconds, double waitSeconds, double target, int max) {
        int c = Math.max(1, (int) Math.floor(rate * serviceSeconds));
        while (c < max && waitBeyond(c, rate, serviceSeconds, waitSeconds) > 1 - target) {
            c++;
        }
        return rate <= 0 ? 0 : Math.min(c, max);
    }
}
