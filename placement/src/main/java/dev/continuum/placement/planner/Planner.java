package dev.continuum.placement.planner;

/** Decides where a job runs given the current inventory. Pure: no I/O, so it runs online and in the simulator. */
public interface Planner {
    PlacementDecision place(PlacementRequest request, Inventory inventory, long nowMillis);
}
