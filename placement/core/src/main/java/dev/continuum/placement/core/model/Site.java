package dev.continuum.placement.core.model;

/** Where a cluster lives: an edge device or a datacenter. */
public record Site(String name, Kind kind) {
    public enum Kind { EDGE, DATACENTER }
}
