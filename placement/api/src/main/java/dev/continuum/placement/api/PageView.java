package dev.continuum.placement.api;

import java.util.List;

/** A page of the decision log; {@code marker} fetches the next one (absent on the last page). */
public record PageView(List<DecisionView> placements, String marker) {}
