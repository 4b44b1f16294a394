package dev.continuum.placement.core.planner;

import java.util.ArrayList;
import java.util.List;

/**
 * Decides where jobs run. Pure and deterministic: no I/O, no clock, no randomness — time comes in with every
 * input, so the same inputs in the same order give the same decisions (this is what record and replay check).
 * Not thread-safe: a service feeds it from one thread.
 */
public interface Planner {
    /** The world changed (heartbeats, a gateway gone, a partition reported): replaces the whole inventory. */
    List<PlacementDecision> update(Inventory inventory, long nowMillis);

    /** Decides for a new job; throws {@link InvalidRequestException} for a request no inventory change would fix. */
    PlacementResult place(PlacementRequest request, long nowMillis);

    /** Learns from a finished job or a measured transfer; returns what the freed resources let start. */
    List<PlacementDecision> observe(Observation observation);

    /**
     * After a restart: takes back the jobs that were running or waiting (in arrival order), where the log says
     * they are, and returns what the policy decides for them now (a queued job may start; a job whose site is
     * gone is unplaceable). Call after the first {@link #update}, before new requests.
     */
    List<PlacementDecision> restore(List<Restored> jobs, long nowMillis);

    /** The latest arrival-rate forecasts of inference jobs, per model and site and per model over all sites. */
    default List<dev.continuum.placement.core.forecast.Forecast> forecasts() {
        return List.of();
    }

    /** Updates the inventory, then places: the one-call form when the caller holds the inventory. */
    default PlacementResult place(PlacementRequest request, Inventory inventory, long nowMillis) {
        List<PlacementDecision> fromUpdate = update(inventory, nowMillis);
        PlacementResult result = place(request, nowMillis);
        if (fromUpdate.isEmpty()) {
            return result;
        }
        List<PlacementDecision> all = new ArrayList<>(fromUpdate);
        all.addAll(result.decisions());
        return new PlacementResult(request.id(), all);
    }
}
