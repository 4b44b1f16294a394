package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Cluster;
import dev.continuum.placement.core.state.PreemptionCosts;

/**
 * How to run one simulation.
 *
 * @param sloFactor a job without a deadline meets its SLO when JCT <= sloFactor x duration
 * @param maxSamples buckets kept per time series
 */
public record SimulationConfig(Cluster cluster, PreemptionCosts costs, double sloFactor, int maxSamples) {
    public static SimulationConfig of(Cluster cluster) {
        return new SimulationConfig(cluster, PreemptionCosts.DEFAULT, 2.0, 500);
    }

    public SimulationConfig withCosts(PreemptionCosts c) {
        return new SimulationConfig(cluster, c, sloFactor, maxSamples);
    }

    public SimulationConfig withSloFactor(double f) {
        return new SimulationConfig(cluster, costs, f, maxSamples);
    }
}
