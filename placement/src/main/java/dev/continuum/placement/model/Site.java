package dev.continuum.placement.model;

/** Where a cluster lives: an edge device or a datacenter. */
public record Site(String name, Kind kind) {
    public enum Kind { EDGE, DATACENTER }
}
