package dev.continuum.engine.app;

/**
 * Who is calling. The auth issue replaces the local implementation with one backed by the
 * verified bearer token; nothing else in the engine needs to change.
 */
public interface CurrentCaller {
    String userId();
}
