package dev.continuum.engine.adapters.runtime;

import dev.continuum.engine.app.EventLoop;
import io.quarkus.vertx.core.runtime.context.VertxContextSafetyToggle;
import io.smallrye.common.vertx.VertxContext;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * The driver's work on Vert.x: each piece on its own duplicated context, carrying only {@link DriverThreadContext} (no
 * request context, transaction or trace) across its Mutiny operators.
 */
@ApplicationScoped
public class VertxEventLoop implements EventLoop {

    private final Vertx vertx;

    public VertxEventLoop(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Flagged safe: loading a flow version this instance has not seen yet goes through Hibernate
     * Reactive, which refuses unflagged contexts (without the flag, runs taken over from another or a
     * crashed instance could never be driven).
     */
    @Override
    public void execute(Runnable work) {
        Context context = VertxContext.createNewDuplicatedContext(vertx.getOrCreateContext());
        VertxContextSafetyToggle.setContextSafe(context, true);
        context.runOnContext(ignored -> DriverThreadContext.run(work));
    }
}
