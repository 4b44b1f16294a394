package dev.continuum.engine.adapters.rest;

/**
 * One caller's allowance: holds up to {@code capacity} requests and refills at {@code perSecond}. A request takes one;
 * an empty bucket says how long until the next one is there.
 */
final class TokenBucket {

    private final double capacity;
    private final double perNano;
    private double available;
    private long refilledAt;

    TokenBucket(int capacity, double perSecond, long now) {
        this.capacity = capacity;
        this.perNano = perSecond / 1e9;
        this.available = capacity;
        this.refilledAt = now;
    }

    /** 0 when the request may go ahead (and is counted), else the nanoseconds until it would. */
    synchronized long take(long now) {
        available = Math.min(capacity, available + (now - refilledAt) * perNano);
        refilledAt = now;
        if (available >= 1) {
            available -= 1;
            return 0;
        }
        return (long) Math.ceil((1 - available) / perNano);
    }
}
