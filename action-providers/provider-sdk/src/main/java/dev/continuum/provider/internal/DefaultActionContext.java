package dev.continuum.provider.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.Caller;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** One action's handle for its provider; every change goes through {@link ActionEngine}. */
final class DefaultActionContext implements ActionContext {

    private static final System.Logger LOG = System.getLogger(DefaultActionContext.class.getName());

    private final ActionEngine engine;
    private final Vertx vertx;
    private final String actionId;
    private final Caller caller;
    private final ActionRequest request;
    private final Set<Long> timers = ConcurrentHashMap.newKeySet();
    /** The request span current when the action was taken up (the POST /run that started it, unless resumed). */
    private final Optional<String> traceparent = RequestSpans.currentTraceparent();

    DefaultActionContext(ActionEngine engine, Vertx vertx, String actionId, Caller caller, ActionRequest request) {
        this.engine = engine;
        this.vertx = vertx;
        this.actionId = actionId;
        this.caller = caller;
        this.request = request;
    }

    @Override
    public String actionId() {
        return actionId;
    }

    @Override
    public Caller caller() {
        return caller;
    }

    @Override
    public ActionRequest request() {
        return request;
    }

    @Override
    public Optional<String> traceparent() {
        return traceparent;
    }

    @Override
    public ActionStatus status() {
        return engine.current(actionId).orElseThrow(() -> new IllegalStateException("action " + actionId + " was released"));
    }

    @Override
    public boolean finished() {
        if (engine.closed()) {
            return true; // the provider is stopping: whatever waits for this action gives up, writing nothing
        }
        return engine.current(actionId).map(s -> s.status().terminal()).orElse(true);
    }

    @Override
    public ActionStatus active(String displayStatus, JsonNode details) {
        return status().with(ActionState.ACTIVE, displayStatus, details);
    }

    @Override
    public ActionStatus succeeded(JsonNode details) {
        return status().with(ActionState.SUCCEEDED, "Succeeded", details);
    }

    @Override
    public ActionStatus failed(String displayStatus, JsonNode details) {
        return status().with(ActionState.FAILED, displayStatus, details);
    }

    @Override
    public void complete(JsonNode details) {
        engine.finish(actionId, ActionState.SUCCEEDED, "Succeeded", details);
    }

    @Override
    public void fail(String displayStatus, JsonNode details) {
        engine.finish(actionId, ActionState.FAILED, displayStatus, details);
    }

    @Override
    public void progress(String displayStatus, JsonNode details) {
        engine.progress(actionId, ActionState.ACTIVE, displayStatus, details);
    }

    @Override
    public void log(String code, String description, JsonNode details) {
        engine.appendLog(actionId, new ActionLogEntry(engine.now(), code, description, details));
    }

    @Override
    public Scheduled schedule(Duration delay, Runnable task) {
        if (engine.closed()) {
            return () -> false; // stopped: nothing runs any more
        }
        long[] holder = new long[1];
        // The timer may fire on another thread before its id is recorded; the lock makes it wait for that.
        synchronized (timers) {
            holder[0] = vertx.setTimer(Math.max(1, delay.toMillis()), t -> {
                synchronized (timers) {
                    if (!timers.remove(t)) {
                        return;
                    }
                }
                vertx.executeBlocking(() -> {
                    task.run();
                    return null;
                }, false).onFailure(e -> LOG.log(System.Logger.Level.ERROR, "scheduled task of action " + actionId + " failed", e));
            });
            timers.add(holder[0]);
        }
        return () -> timers.remove(holder[0]) && vertx.cancelTimer(holder[0]);
    }

    /** Called when the action finished: its pending timers must not fire any more. */
    void cancelTimers() {
        for (Long id : Set.copyOf(timers)) {
            if (timers.remove(id)) {
                vertx.cancelTimer(id);
            }
        }
    }
}
