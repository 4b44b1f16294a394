package dev.continuum.engine.app;

/** A run with the flow version it was started from: what the API shows of a run (flow title, roles). */
public record RunAndFlow(RunRecord run, FlowRecord flow) {}
