package dev.continuum.provider.transfer.provider;

import java.time.Duration;

/**
 * Where a finished transfer's measured rate goes: the placement planner's link model ({@code POST
 * /inventory/transfers}, through the planner contract's {@code PlannerClient}), so its predicted transfer times follow
 * what the links really carry. Called on the transfer's worker thread once it has succeeded.
 */
@FunctionalInterface
public interface MeasuredRates {

    /** Nowhere: the provider runs without a planner. */
    MeasuredRates NONE = (from, to, bytes, elapsed) -> { };

    /** {@code bytes} moved from endpoint {@code from} to endpoint {@code to} in {@code elapsed} (resumed bytes left out). */
    void measured(String from, String to, long bytes, Duration elapsed);
}
