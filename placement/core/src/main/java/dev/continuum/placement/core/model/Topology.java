package dev.continuum.placement.core.model;

/**
 * How placement shape changes speed. A job on one node runs at full speed; spread over nodes of
 * one rack it runs {@code crossNodeSlowdown} times slower; over several racks
 * {@code crossRackSlowdown} times slower (AnalySIM's consolidation incentive).
 */
public record Topology(double crossNodeSlowdown, double crossRackSlowdown) {
    public static final Topology DEFAULT = new Topology(1.0, 1.3);

    public Topology {
        if (crossNodeSlowdown < 1.0 || crossRackSlowdown < crossNodeSlowdown) {
            throw new IllegalArgumentException("slowdowns must be >= 1 and cross-rack >= cross-node");
        }
    }

    public double slowdown(int nodes, int racks) {
        if (racks > 1) {
            return crossRackSlowdown;
        }
        return nodes > 1 ? crossNodeSlowdown : 1.0;
    }
}
