package dev.continuum.engine.app;

/** What the engine counts for operators (adapters/runtime/RunMetrics exports it). */
public interface EngineMetrics {

    /** {@code count} run state transitions were committed. */
    void transitionsCommitted(int count);
}
