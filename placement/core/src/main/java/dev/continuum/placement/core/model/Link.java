package dev.continuum.placement.core.model;

/** A network link between two racks or sites. */
public record Link(String from, String to, double bandwidthGbps, double latencyMs) {
}
