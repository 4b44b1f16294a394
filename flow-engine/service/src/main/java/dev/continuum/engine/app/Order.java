package dev.continuum.engine.app;

/** One sort criterion of a listing ({@code orderby=start_time DESC}); the store breaks ties by id. */
public record Order<F extends Enum<F>>(F field, boolean descending) {}
