package dev.continuum.provider.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.Problem;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionStore;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.InvalidInputException;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.SharedActionStore;
import dev.continuum.provider.server.StoredAction;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Metrics;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The life cycle of the actions of one provider: the only place where an action's stored state
 * changes. Blocking; the HTTP layer calls it on worker threads.
 */
public final class ActionEngine {

    static final String DEFAULT_RELEASE_AFTER = "P30D";
    /** Parsed once: most actions keep the default, and parsing it at every finish showed in the engine's profile (issue 17). */
    private static final Duration DEFAULT_KEEP = IsoDurations.parse(DEFAULT_RELEASE_AFTER).orElseThrow();
    private static final System.Logger LOG = System.getLogger(ActionEngine.class.getName());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final ActionProvider provider;
    /** The provider as its metrics name it: the last segment of the path it is mounted at. */
    private final String name;
    private final ProviderDescription description;
    private final InputValidator validator;
    private final ActionStore store;
    private final Vertx vertx;
    private final Clock clock;
    private final CallbackNotifier notifier;
    private final Duration releaseSweep;
    private final Duration releasedRetention;
    private final Map<String, DefaultActionContext> live = new ConcurrentHashMap<>();
    /** In-process callers' completion listeners, in place of a callback URL. */
    private final Map<String, Consumer<ActionStatus>> listeners = new ConcurrentHashMap<>();
    /** The periodic timers of {@link #startBackgroundWork}: lease renewal, release sweep. */
    private final List<Long> periodic = new CopyOnWriteArrayList<>();
    /**
     * Closed ({@link #close}): no action's stored state changes any more through this engine. A change takes the read
     * lock and checks {@link #closed}; close takes the write lock, so a change under way when it is called is stored
     * before close returns and none is stored after.
     */
    private final ReadWriteLock closing = new ReentrantReadWriteLock();
    private volatile boolean closed;

    public ActionEngine(String name, ActionProvider provider, ProviderServerOptions options) {
        this.name = Objects.requireNonNull(name, "name");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.description = Objects.requireNonNull(provider.describe(), "provider.describe()");
        this.validator = new InputValidator(description.inputSchema());
        this.store = options.store();
        this.vertx = options.vertx();
        this.clock = options.clock();
        this.notifier = new CallbackNotifier(vertx, options.callbackAttempts(), options.callbackBackoff());
        this.releaseSweep = options.releaseSweep();
        this.releasedRetention = options.releasedRetention();
    }

    /** The result of a /run: the action, and whether this call created it (202) or found it (200). */
    public record RunOutcome(ActionStatus status, boolean created) {}

    /** A page of log entries; {@code nextMarker} is null on the last page. */
    public record LogPage(List<ActionLogEntry> entries, String nextMarker) {}

    public ProviderDescription description() {
        return description;
    }

    /** Whether run, status, cancel and release never block: the provider says so and its store keeps to memory. */
    public boolean neverBlocks() {
        return provider.neverBlocks() && store.neverBlocks();
    }

    /**
     * Resumes unfinished actions of a persistent store and starts forgetting released ones. A shared
     * store gives this instance only the actions nobody else holds, then keeps its leases alive and
     * adopts the actions of instances that died (ADR 0027).
     */
    public void startBackgroundWork() {
        if (store instanceof SharedActionStore shared) {
            resumeAll(shared.adopt(true));
            long period = Math.max(200, shared.lease().toMillis() / 3);
            periodic.add(vertx.setPeriodic(period, t -> vertx.executeBlocking(() -> {
                keepLeases(shared);
                return null;
            }, false)));
        } else {
            resumeAll(store.unfinished());
        }
        periodic.add(vertx.setPeriodic(Math.max(1, releaseSweep.toMillis()), t -> vertx.executeBlocking(() -> {
            if (closed) {
                return null;
            }
            Instant now = now();
            for (String id : store.releasable(now)) {
                // past release_after: released now; released and past the retention: forgotten, request_id freed. The
                // retention is read again from the action as it is now: sweeps overlap when the store is slow, and one
                // that listed the action before another released it must not take that fresh release for an old one.
                Optional<StoredAction> current = store.find(id);
                if (current.map(StoredAction::released).orElse(false)) {
                    if (!current.get().releaseAt().isAfter(now)) {
                        store.remove(id);
                    }
                } else {
                    release(id);
                }
            }
            return null;
        }, false)));
    }

    /**
     * Stops this provider's background work: the lease renewal and release sweep, every action's timers, then the
     * provider's own ({@link ActionProvider#stop}). Changes that anything of this engine asks for afterwards — a late
     * poller's {@code fail}, a timer, a call that reaches the routes — are not stored: the actions stay as they are,
     * for a restarted provider or another instance of a shared store to resume. Idempotent.
     */
    public void close() {
        closing.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
        } finally {
            closing.writeLock().unlock();
        }
        periodic.forEach(vertx::cancelTimer);
        for (DefaultActionContext ctx : List.copyOf(live.values())) {
            ctx.cancelTimers();
        }
        live.clear();
        listeners.clear();
        try {
            provider.stop();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "provider stop failed", e);
        }
    }

    boolean closed() {
        return closed;
    }

    /** A provider's change of an action's stored state ({@link ActionStore#update}); nothing once closed. */
    private Optional<StoredAction> update(String actionId, UnaryOperator<StoredAction> change) {
        closing.readLock().lock();
        try {
            return closed ? Optional.empty() : store.update(actionId, change);
        } finally {
            closing.readLock().unlock();
        }
    }

    private void refuseWhenClosed() {
        if (closed) {
            throw Problems.unavailable("This provider is stopping; ask again, another instance or the restarted one answers.");
        }
    }

    private void resumeAll(List<StoredAction> actions) {
        for (StoredAction action : actions) {
            if (closed) {
                return;
            }
            if (live.containsKey(action.actionId())) {
                continue; // driven here already (its lease had lapsed while the database was out of reach)
            }
            DefaultActionContext ctx = contextFor(action);
            try {
                provider.resume(ctx);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "resuming action " + action.actionId() + " failed", e);
                finish(action.actionId(), ActionState.FAILED, "Provider error", errorDetails(e));
            }
        }
    }

    /** Renews this instance's leases, then adopts what a dead instance left; a database outage is retried next time. */
    private void keepLeases(SharedActionStore shared) {
        if (closed) {
            return;
        }
        try {
            shared.renew();
            List<StoredAction> adopted = shared.adopt(false);
            if (!adopted.isEmpty()) {
                LOG.log(System.Logger.Level.INFO, "instance " + shared.instanceId() + " adopted " + adopted.size()
                        + " unfinished actions whose owner stopped renewing its lease");
                resumeAll(adopted);
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "cannot renew or adopt action leases now: " + e.getMessage());
        }
    }

    /** {@link #run}, after checking the body against the provider's input schema. */
    public RunOutcome runValidated(Caller caller, ActionRequest request, String callbackUrl, Consumer<ActionStatus> listener) {
        List<Problem.FieldError> invalid = validator.validate(request.body());
        if (!invalid.isEmpty()) {
            throw Problems.invalidRequest("body does not match the provider's input_schema: "
                    + RequestParser.summary(invalid), invalid);
        }
        return run(caller, request, callbackUrl, listener);
    }

    /**
     * Starts (or finds) an action. A finish later than this call is pushed to {@code listener} when
     * given (an in-process caller), else to {@code callbackUrl}; a finish within this call is not
     * pushed at all: the answer already carries it.
     */
    private RunOutcome run(Caller caller, ActionRequest request, String callbackUrl, Consumer<ActionStatus> listener) {
        refuseWhenClosed();
        Optional<StoredAction> earlier = store.findByRequest(caller.id(), request.requestId());
        if (earlier.isPresent()) {
            return repeated(earlier.get(), request);
        }
        Instant now = now();
        String releaseAfter = request.releaseAfter() == null ? DEFAULT_RELEASE_AFTER : request.releaseAfter();
        List<String> manageBy = request.manageBy() == null ? List.of(caller.id()) : request.manageBy();
        List<String> monitorBy = request.monitorBy() == null ? List.of(caller.id()) : request.monitorBy();
        ActionStatus initial = new ActionStatus(UUID.randomUUID().toString(), ActionState.ACTIVE, caller.id(),
                request.label(), manageBy, monitorBy, now, null, releaseAfter, "Starting", NODES.objectNode());
        StoredAction fresh = new StoredAction(initial, request, callbackUrl, List.of(), null)
                .withLogEntry(new ActionLogEntry(now, "ActionStarted", "Action started", null));
        StoredAction holder = store.insertIfAbsent(fresh);
        if (!holder.actionId().equals(fresh.actionId())) {
            return repeated(holder, request); // a concurrent duplicate won the race
        }
        String id = fresh.actionId();
        if (listener != null) {
            listeners.put(id, listener);
        }
        DefaultActionContext ctx = contextFor(fresh);
        ActionStatus reported;
        try {
            reported = provider.start(request, ctx);
        } catch (InvalidInputException e) {
            forget(id);
            throw Problems.invalidRequest(e.pointer(), e.getMessage());
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "provider failed to start action " + id, e);
            finish(id, ActionState.FAILED, "Provider error", errorDetails(e), false);
            return new RunOutcome(currentOrThrow(id), true);
        }
        apply(id, reported);
        return new RunOutcome(currentOrThrow(id), true);
    }

    public ActionStatus status(Caller caller, String actionId) {
        StoredAction action = visibleTo(caller, actionId);
        return action.status();
    }

    public ActionStatus cancel(Caller caller, String actionId) {
        refuseWhenClosed();
        StoredAction action = managedBy(caller, actionId);
        if (action.finished()) {
            throw Problems.conflict("Action " + actionId + " already finished as " + action.status().status()
                    + "; only a running action can be cancelled.");
        }
        DefaultActionContext ctx = contextFor(action);
        try {
            provider.cancel(ctx);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "provider cancel of action " + actionId + " failed; marking it cancelled anyway", e);
        }
        ObjectNode details = NODES.objectNode().put("cancelled", true).put("cancelled_by", caller.id());
        finish(actionId, ActionState.FAILED, "Cancelled", details);
        return currentOrThrow(actionId);
    }

    public ActionStatus release(Caller caller, String actionId) {
        refuseWhenClosed();
        StoredAction action = managedBy(caller, actionId);
        if (!action.finished()) {
            throw Problems.conflict("Action " + actionId + " is still " + action.status().status()
                    + "; cancel it or wait until it finishes before releasing it.");
        }
        release(actionId);
        return action.status();
    }

    public LogPage log(Caller caller, String actionId, int limit, int offset) {
        List<ActionLogEntry> all = visibleTo(caller, actionId).log();
        int from = Math.min(offset, all.size());
        int to = (int) Math.min((long) from + limit, all.size());
        return new LogPage(all.subList(from, to), to < all.size() ? Integer.toString(to) : null);
    }

    // ---- changes requested by providers through their ActionContext ----

    Optional<ActionStatus> current(String actionId) {
        return store.find(actionId).map(StoredAction::status);
    }

    Instant now() {
        return clock.instant();
    }

    void finish(String actionId, ActionState state, String displayStatus, JsonNode details) {
        finish(actionId, state, displayStatus, details, true);
    }

    private void finish(String actionId, ActionState state, String displayStatus, JsonNode details, boolean push) {
        Instant at = now();
        AtomicBoolean changed = new AtomicBoolean();
        Optional<StoredAction> after = update(actionId, current -> {
            if (current.finished()) {
                return current; // first finish wins; e.g. a cancel beats a late timer
            }
            changed.set(true);
            ActionStatus done = current.status().with(state, displayStatus, details).completedAt(at);
            Duration keep = DEFAULT_RELEASE_AFTER.equals(done.releaseAfter()) ? DEFAULT_KEEP
                    : IsoDurations.parse(done.releaseAfter()).orElse(DEFAULT_KEEP);
            String code = state == ActionState.SUCCEEDED ? "ActionSucceeded" : "ActionFailed";
            return current.withStatus(done)
                    .withLogEntry(new ActionLogEntry(at, code, displayStatus, null))
                    .withReleaseAt(at.plus(keep));
        });
        if (!changed.get()) {
            return;
        }
        countFinished(state);
        DefaultActionContext ctx = live.remove(actionId);
        if (ctx != null) {
            ctx.cancelTimers();
        }
        StoredAction finished = after.orElseThrow();
        Consumer<ActionStatus> listener = listeners.remove(actionId);
        if (!push) {
            return;
        }
        if (listener != null) {
            try {
                listener.accept(finished.status());
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "completion listener of action " + actionId + " failed", e);
            }
        } else if (finished.callbackUrl() != null) {
            notifier.deliver(finished.callbackUrl(), finished.status());
        }
    }

    /**
     * Counts a finish for the dashboard's provider errors (deploy/grafana/continuum.json, row "Providers"), once, by
     * the instance that stored it. Micrometer's global registry: the launcher serves it (ProviderMetrics); an
     * embedding without one counts into nothing.
     */
    private void countFinished(ActionState state) {
        Counter.builder("continuum.provider.actions").tag("provider", name).tag("status", state.name())
                .description("Actions finished by a provider, by final status (FAILED includes cancelled ones)")
                .register(Metrics.globalRegistry).increment();
    }

    void progress(String actionId, ActionState state, String displayStatus, JsonNode details) {
        update(actionId, current -> current.finished()
                ? current
                : current.withStatus(current.status().with(state, displayStatus, details)));
    }

    void appendLog(String actionId, ActionLogEntry entry) {
        update(actionId, current -> current.released() ? current : current.withLogEntry(entry));
    }

    // ---- helpers ----

    private RunOutcome repeated(StoredAction earlier, ActionRequest request) {
        if (!Objects.equals(earlier.request().body(), request.body())) {
            throw Problems.conflict("request_id " + request.requestId() + " was already used with a different body"
                    + " (action " + earlier.actionId() + "); use a new request_id for a new action.");
        }
        return new RunOutcome(earlier.status(), false);
    }

    /** Takes what start() returned: the provider owns state, display_status and details, the framework the rest. */
    private void apply(String actionId, ActionStatus reported) {
        if (reported == null) {
            progress(actionId, ActionState.ACTIVE, "Active", null);
            return;
        }
        if (reported.status().terminal()) {
            finish(actionId, reported.status(), reported.displayStatus(), reported.details(), false);
        } else {
            progress(actionId, reported.status(), reported.displayStatus(), reported.details());
        }
    }

    private DefaultActionContext contextFor(StoredAction action) {
        return live.computeIfAbsent(action.actionId(), id -> new DefaultActionContext(this, vertx, id,
                Caller.of(action.creatorId()), action.request()));
    }

    /**
     * Releases a finished action: gone for status, log, cancel and release, but its request_id stays bound for the
     * retention, so a /run of that request_id arriving late (sent before the release by a caller that has since lost
     * its claim on the work, e.g. an engine whose turn outlived its lease) answers this action and does nothing again.
     * Freeing the request_id at release let such a call start a second action (docs/reliability.md).
     */
    private void release(String actionId) {
        if (releasedRetention.isZero()) {
            forget(actionId);
            return;
        }
        Instant at = now();
        store.update(actionId, current -> current.released() ? current : current.releasedAt(at, at.plus(releasedRetention)));
        listeners.remove(actionId);
        DefaultActionContext ctx = live.remove(actionId);
        if (ctx != null) {
            ctx.cancelTimers();
        }
    }

    private void forget(String actionId) {
        store.remove(actionId);
        listeners.remove(actionId);
        DefaultActionContext ctx = live.remove(actionId);
        if (ctx != null) {
            ctx.cancelTimers();
        }
    }

    private ActionStatus currentOrThrow(String actionId) {
        return current(actionId).orElseThrow(() -> Problems.actionNotFound(actionId));
    }

    /** An action that exists for status, log, cancel and release: stored and not released. */
    private StoredAction existing(String actionId) {
        return store.find(actionId).filter(a -> !a.released()).orElseThrow(() -> Problems.actionNotFound(actionId));
    }

    private StoredAction visibleTo(Caller caller, String actionId) {
        StoredAction action = existing(actionId);
        ActionStatus s = action.status();
        if (!caller.id().equals(s.creatorId()) && !s.monitorBy().contains(caller.id()) && !s.manageBy().contains(caller.id())) {
            throw Problems.forbidden(caller.id() + " is neither the creator of action " + actionId
                    + " nor in its monitor_by or manage_by lists.");
        }
        return action;
    }

    private StoredAction managedBy(Caller caller, String actionId) {
        StoredAction action = existing(actionId);
        ActionStatus s = action.status();
        if (!caller.id().equals(s.creatorId()) && !s.manageBy().contains(caller.id())) {
            throw Problems.forbidden(caller.id() + " is neither the creator of action " + actionId
                    + " nor in its manage_by list.");
        }
        return action;
    }

    private static ObjectNode errorDetails(RuntimeException e) {
        // The class name helps an operator; the message may help a user. No stack trace leaves the process.
        return NODES.objectNode().put("error", e.getClass().getSimpleName())
                .put("message", String.valueOf(e.getMessage()));
    }
}
