package dev.continuum.engine.app;

/**
 * Where the driver's non-blocking work runs: each piece on a context of its own, so the reactive
 * database client and the provider calls may be used from it (adapters/runtime/VertxEventLoop).
 */
public interface EventLoop {

    void execute(Runnable work);
}
