package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.LogEntry;
import dev.continuum.flow.run.RunEvent;
import dev.continuum.flow.run.RunState;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.flow.run.Step;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * Moves runs forward. An instance drives a run only while it holds the run's lease; each loop
 * turn performs the run's due effects (provider calls, polls, timers), feeds their outcomes to
 * the interpreter and commits the new state and its log in one transaction before anything
 * else sees it. After a crash the lease expires and any instance re-derives the pending effects
 * from the committed state; request ids make a repeated provider call harmless.
 *
 * <p>Framework-free: its work runs on an {@link EventLoop}, it counts through {@link EngineMetrics},
 * and adapters/runtime starts its periodic {@link #scan()} and {@link #stop()}s it.
 */
@ApplicationScoped
public class RunDriver implements Driver {

    private static final Logger LOG = Logger.getLogger(RunDriver.class);

    private final RunStore runs;
    private final FlowInterpreters interpreters;
    private final ActionGateway gateway;
    private final ProviderTokens tokens;
    private final Clock clock;
    private final EngineConfig.Runs settings;
    /** Half a lease, the fence's margin: once, not per provider call (Duration.dividedBy goes through BigDecimal). */
    private final Duration halfLease;
    private final CallbackUrls callbacks;
    private final EventLoop loop;
    private final EngineMetrics metrics;
    private final RunChanges changes;
    private final String instanceId;
    /** This process among the engine's processes (a restart makes a new one): the holder of its finish listeners. */
    private final String incarnation = "process-" + UUID.randomUUID();
    /**
     * In-process (built-in) actions whose finish this process will be told of, per run and token: the provider holds
     * {@link #deliver} as the action's finish listener. While this process's heartbeat is current their runs skip the
     * actions' status polls (a poll would only hear ACTIVE): each commit names this process as the run's listener and
     * leaves those polls out of its wake-up, except one at the backoff cap (the value here: when), in case a finish
     * went astray. Should the process die, the listener dies with it; its heartbeat then runs out, and any instance's
     * {@link #heartbeat} makes the run due, whose actions are then polled as before.
     */
    private final ConcurrentHashMap<UUID, ConcurrentHashMap<String, Instant>> reported = new ConcurrentHashMap<>();
    /** Until when this process's last written heartbeat vouches for it; null before the first. */
    private volatile Instant aliveUntil;
    private final Set<UUID> driving = ConcurrentHashMap.newKeySet();
    private final Set<UUID> nudged = ConcurrentHashMap.newKeySet();
    /**
     * Late finishes of in-process (built-in) actions, per run, not yet committed: handed to the driver in
     * memory instead of through run_inbox (saves the inbox row, its deletion, the wake-up and, while the run
     * is being driven, the claim and the inbox read). Until the turn that takes them commits, they live only
     * here; if the process dies first, the run's committed state still says the action is ACTIVE and its
     * poll asks the provider again, as after any crash. Should the run be held elsewhere, they go to run_inbox.
     */
    private final ConcurrentHashMap<UUID, List<LocalFinish>> mailbox = new ConcurrentHashMap<>();
    /** Drives that keep their run's lease a moment for an in-process finish: how to wake each when it comes. */
    private final ConcurrentHashMap<UUID, Runnable> awaitingFinish = new ConcurrentHashMap<>();
    /** Drives finished per run: a claim that read a run before one of them finished holds a stale copy. */
    private final ConcurrentHashMap<UUID, Long> drivesDone = new ConcurrentHashMap<>();
    private final AtomicBoolean scanning = new AtomicBoolean();
    /** Claims of single runs (nudges) under way. */
    private final AtomicInteger claims = new AtomicInteger();
    private volatile boolean stopping;

    public RunDriver(RunStore runs, FlowInterpreters interpreters, ActionGateway gateway, ProviderTokens tokens, Clock clock,
                     EngineConfig config, CallbackUrls callbacks, EventLoop loop, EngineMetrics metrics,
                     RunChanges changes) {
        this.tokens = tokens;
        this.changes = changes;
        this.runs = runs;
        this.interpreters = interpreters;
        this.gateway = gateway;
        this.clock = clock;
        this.settings = config.runs();
        this.halfLease = settings.leaseDuration().dividedBy(2);
        this.callbacks = callbacks;
        this.loop = loop;
        this.metrics = metrics;
        this.instanceId = config.instanceId().orElse("engine-" + UUID.randomUUID());
    }

    /** The engine is shutting down: no more scans. */
    public void stop() {
        stopping = true;
    }

    @Override
    public String instanceId() {
        return instanceId;
    }

    @Override
    public Instant leaseUntil() {
        return clock.instant().plus(settings.leaseDuration());
    }

    /**
     * Tells the other instances this process lives (for the length of a lease), and makes due the runs whose finish
     * listener's process no longer does, so their actions are polled. adapters/runtime calls it every third of a lease.
     */
    public void heartbeat() {
        if (stopping) {
            return;
        }
        Instant now = clock.instant();
        Instant until = now.plus(settings.leaseDuration());
        loop.execute(() -> runs.heartbeat(incarnation, now, until).subscribe().with(woken -> {
            aliveUntil = until;
            if (woken > 0) {
                LOG.infof("%d runs had a finish listener in an engine process that is gone; their actions are polled again", woken);
            }
        }, failure -> LOG.warnf("heartbeat failed (in-process actions are polled as scheduled until one succeeds): %s",
                failure.getMessage())));
    }

    /** Looks for runs whose timers or polls are due, or whose owner died, and drives them. */
    public void scan() {
        int room = settings.maxConcurrent() - driving.size();
        if (stopping || room <= 0 || !scanning.compareAndSet(false, true)) {
            return;
        }
        Instant until = leaseUntil();
        loop.execute(() -> runs.claimDue(instanceId, clock.instant(), until, room)
                .subscribe().with(ids -> {
                    try {
                        ids.forEach(id -> launch(id, null, true, until)); // before the flag drops, so idle() never sees a gap
                    } finally {
                        scanning.set(false);
                    }
                }, failure -> {
                    scanning.set(false);
                    LOG.warnf("scan for due runs failed: %s", failure.getMessage());
                }));
    }

    /**
     * Drives a run this instance has just leased; {@code known} saves a read when the caller has it.
     * A caller that knows the run has just been created saves the inbox read too: nothing can be
     * queued for it yet, and whatever is pushed later nudges it.
     */
    @Override
    public void launch(UUID runId, RunRecord known, Instant leaseUntil) {
        launch(runId, known, known == null, leaseUntil);
    }

    /** {@code leaseUntil}: the end of the lease this instance has just written for the run. */
    private void launch(UUID runId, RunRecord known, boolean readInbox, Instant leaseUntil) {
        if (!driving.add(runId)) {
            nudged.add(runId); // the drive under way goes on under its own (earlier) lease end, which is safe
            return;
        }
        Lease lease = new Lease(leaseUntil);
        loop.execute(() -> drive(runId, known, readInbox, lease).subscribe().with(
                done -> stoppedDriving(runId),
                failure -> {
                    driving.remove(runId);
                    RunLogs.about(runId, () -> LOG.errorf(failure, "driving run %s failed; it will be retried", runId));
                }));
    }

    /**
     * A nudge (or a scan's claim) that came after the last turn looked would otherwise leave the run
     * leased to this instance but driven by nobody until the lease expires; take it up now.
     */
    private void stoppedDriving(UUID runId) {
        if (drivesDone.size() > 100_000) {
            drivesDone.clear(); // bounded memory; a claim that then sees a changed count just re-reads
        }
        drivesDone.merge(runId, 1L, Long::sum);
        driving.remove(runId);
        if (nudged.remove(runId) | mailbox.containsKey(runId)) {
            nudge(runId);
        }
    }

    /** Something arrived for a run (pushed completion, cancel, resume): drive it now if nobody else is. */
    @Override
    public void nudge(UUID runId) {
        if (driving.contains(runId)) {
            nudged.add(runId);
            Runnable waiting = awaitingFinish.get(runId);
            if (waiting != null) { // a cancel or a pushed status need not wait out the grace
                waiting.run();
            }
            return;
        }
        Long drivesBefore = drivesDone.get(runId);
        claims.incrementAndGet();
        Instant until = leaseUntil();
        loop.execute(() -> runs.claim(runId, instanceId, clock.instant(), until).subscribe().with(
                // A drive that finished while the claim was under way may have committed after the claim read.
                found -> {
                    try {
                        found.ifPresentOrElse(run -> launch(runId,
                                        Objects.equals(drivesBefore, drivesDone.get(runId)) ? run : null, true, until),
                                () -> takeMailbox(runId).forEach(finish -> toInbox(runId, finish))); // held elsewhere
                    } finally {
                        claims.decrementAndGet();
                    }
                },
                failure -> {
                    claims.decrementAndGet();
                    LOG.warnf("could not take run %s: %s", runId, failure.getMessage());
                }));
    }

    /**
     * Nothing in hand: no scan or claim under way and no run being driven. A snapshot: a push or a
     * scan may start work the next moment (the test TimeSkipper moves time only while this holds).
     */
    public boolean idle() {
        return !scanning.get() && claims.get() == 0 && driving.isEmpty();
    }

    private Uni<Void> drive(UUID runId, RunRecord known, boolean readInbox, Lease lease) {
        Uni<RunRecord> load = known != null ? Uni.createFrom().item(known)
                : runs.find(runId).map(found -> found.orElseThrow(() -> new IllegalStateException("run vanished")));
        return load.flatMap(run -> interpreters.forVersion(run.flowId(), run.flowVersion())
                .flatMap(interpreter -> turn(runId, interpreter, DueWork.of(interpreter, run.state()), run.updatedAt(), readInbox,
                        lease)));
    }

    /**
     * The end of the lease a drive holds, as this instance last wrote it (claim, commit or renewal); a drive's own,
     * never shared with another drive of the run, so a re-claim by this instance cannot vouch for a stale turn.
     */
    private static final class Lease {
        volatile Instant until;

        Lease(Instant until) {
            this.until = until;
        }
    }

    /**
     * Asked before each provider start: a turn may call only while it holds the run. With at least half a lease left
     * (the usual case: the turn began just after its claim or commit) that is known without asking the database;
     * later, the lease is extended in the database first, which fails if another instance took the run or committed
     * since {@code basedOn}. A turn slowed past its lease (a loaded machine, a slow token exchange, a retry) would
     * otherwise call after the run's new holder had called, finished and released the same action.
     */
    private ActionGateway.Fence fence(UUID runId, Instant basedOn, Lease lease) {
        return () -> {
            Instant now = clock.instant();
            Instant until = lease.until;
            if (until != null && now.plus(halfLease).isBefore(until)) {
                return Uni.createFrom().item(true);
            }
            Instant extended = leaseUntil();
            return runs.holdLease(runId, instanceId, basedOn, now, extended).invoke(held -> {
                if (held) {
                    lease.until = extended;
                }
            });
        };
    }

    /** {@code basedOn} is when {@code work}'s state was committed; a commit fails if the run moved on since. */
    private Uni<Void> turn(UUID runId, Interpreter interpreter, DueWork work, Instant basedOn, boolean readInbox,
                           Lease lease) {
        nudged.remove(runId);
        RunState state = work.state();
        Uni<List<RunStore.InboxItem>> inbox = readInbox ? runs.inbox(runId) : Uni.createFrom().item(List.of());
        return inbox.flatMap(items -> {
            List<LocalFinish> local = takeMailbox(runId);
            Instant now = clock.instant();
            List<Effect> due = work.dueEffects(now, pollNotBefore(runId, now));
            if (items.isEmpty() && local.isEmpty() && due.isEmpty()) {
                String listener = listener(runId, work, now);
                return runs.commit(runId, instanceId, basedOn, state, List.of(),
                                work.wakeAt(now, pollNotBefore(runId, now)), null, now, List.of(), listener)
                        .replaceWithVoid();
            }
            List<RunEvent> events = new ArrayList<>();
            items.forEach(item -> events.add(inboxEvent(item)));
            local.forEach(finish -> events.add(new RunEvent.ActionPolled(finish.token(), observation(finish.status()))));
            boolean startsLocal = due.stream().anyMatch(e -> e instanceof Effect.StartAction start && gateway.inProcess(start.actionUrl()));
            return perform(runId, due, fence(runId, basedOn, lease)).onFailure().invoke(failure -> giveBack(runId, local)).flatMap(outcomes -> {
                events.addAll(outcomes);
                // An in-process action that finished while it was being started (a short sleep, a quick built-in) joins
                // this turn after its start: one commit instead of one for the start and a claim and commit for the finish.
                List<LocalFinish> quick = takeMailbox(runId);
                quick.forEach(finish -> events.add(new RunEvent.ActionPolled(finish.token(), observation(finish.status()))));
                List<LocalFinish> taken = quick.isEmpty() ? local : new ArrayList<>(local);
                if (!quick.isEmpty()) {
                    taken.addAll(quick);
                }
                return advance(runId, interpreter, state, basedOn, events, items, taken, startsLocal, lease);
            }).onFailure(ActionGateway.LeaseLost.class).recoverWithUni(lost -> {
                RunLogs.about(runId, () -> LOG.warnf("run %s was taken over by another instance before its action was called;"
                        + " this one stops driving it", runId));
                takeMailbox(runId).forEach(finish -> toInbox(runId, finish)); // the new holder finds them there
                return Uni.createFrom().voidItem();
            });
        });
    }

    private Uni<Void> advance(UUID runId, Interpreter interpreter, RunState state, Instant basedOn, List<RunEvent> events,
                              List<RunStore.InboxItem> consumed, List<LocalFinish> local, boolean startedLocal, Lease lease) {
        Instant now = clock.instant();
        Step step = interpreter.applyAll(state, events, now);
        List<LogEntry> log = step.log();
        List<Effect> afterCommit = new ArrayList<>();
        for (Effect effect : step.effects()) {
            if (effect instanceof Effect.CancelAction || effect instanceof Effect.ReleaseAction) {
                afterCommit.add(effect);
            }
        }
        RunState next = step.state();
        DueWork nextWork = DueWork.of(interpreter, next);
        String listener = listener(runId, nextWork, now); // before pollNotBefore: it forgets the actions no longer awaited
        Function<String, Instant> pollNotBefore = pollNotBefore(runId, now);
        boolean more = !nextWork.dueEffects(now, pollNotBefore).isEmpty() || nudged.contains(runId)
                || mailbox.containsKey(runId);
        // An in-process action this turn started is still ACTIVE: its finish often comes within milliseconds (a short
        // sleep); keeping the lease that long lets this drive take it without a claim, and costs a release if it does not.
        boolean awaitLocal = !more && startedLocal && next.status() == RunStatus.ACTIVE
                && settings.localFinishGrace().toMillis() > 0;
        List<Long> inboxIds = consumed.stream().map(RunStore.InboxItem::id).toList();
        Instant keepUntil = more || awaitLocal ? leaseUntil() : null;
        return runs.commit(runId, instanceId, basedOn, next, log, nextWork.wakeAt(now, pollNotBefore),
                        keepUntil, now, inboxIds, listener)
                .onFailure().invoke(failure -> giveBack(runId, local))
                .flatMap(committed -> {
                    if (!committed) {
                        RunLogs.about(runId, () -> LOG.warnf("run %s was taken over by another instance; this one stops driving it", runId));
                        local.forEach(finish -> toInbox(runId, finish)); // the new holder finds them there
                        return Uni.createFrom().voidItem();
                    }
                    lease.until = keepUntil;
                    metrics.transitionsCommitted(log.size());
                    changes.committed(RunChanged.of(runId, state, next, now));
                    fireAndForget(runId, afterCommit, next.status().finished());
                    if (awaitLocal) { // the turn after the wait takes the finish, or commits the lease's release
                        return localFinish(runId).flatMap(v -> turn(runId, interpreter, nextWork, now, nudged.contains(runId), lease));
                    }
                    return more ? turn(runId, interpreter, nextWork, now, nudged.contains(runId), lease) : Uni.createFrom().voidItem();
                });
    }

    /**
     * The run's listener to commit with {@code work}'s state: this process, while its heartbeat is current and it will be told of
     * the finish of an action the run still waits on; else null. Forgets the actions the run no longer waits on.
     */
    private String listener(UUID runId, DueWork work, Instant now) {
        ConcurrentHashMap<String, Instant> tokens = reported.get(runId);
        if (tokens == null) {
            return null;
        }
        if (work.state().status().finished()) {
            reported.remove(runId);
            return null;
        }
        tokens.keySet().retainAll(work.awaitedActions());
        if (tokens.isEmpty()) {
            reported.remove(runId, tokens);
            return null;
        }
        return alive(now) ? incarnation : null;
    }

    /** By token, when to poll an action of the run whose finish this process will be told of anyway; null: as scheduled. */
    private Function<String, Instant> pollNotBefore(UUID runId, Instant now) {
        Map<String, Instant> tokens = reported.get(runId);
        if (tokens == null || !alive(now)) {
            return token -> null;
        }
        return tokens::get;
    }

    private boolean alive(Instant now) {
        Instant until = aliveUntil;
        return until != null && now.isBefore(until);
    }

    /** Done when an in-process finish (or a nudge) for the run is here, or after the grace; on the driver's loop. */
    private Uni<Void> localFinish(UUID runId) {
        return Uni.createFrom().emitter(done -> {
            AtomicBoolean woken = new AtomicBoolean();
            AtomicReference<Cancellable> timer = new AtomicReference<>();
            Runnable wake = () -> {
                if (woken.compareAndSet(false, true)) {
                    awaitingFinish.remove(runId);
                    cancelGrace(timer); // the finish came first (the usual case): no timer thread wakes for nothing
                    loop.execute(() -> done.complete(null));
                }
            };
            awaitingFinish.put(runId, wake);
            if (mailbox.containsKey(runId) || nudged.contains(runId)) { // came before the waiter was set
                wake.run();
                return;
            }
            timer.set(Uni.createFrom().voidItem().onItem().delayIt().by(settings.localFinishGrace())
                    .subscribe().with(v -> wake.run(), failure -> wake.run()));
            if (woken.get()) { // woken while the timer was being set
                cancelGrace(timer);
            }
        });
    }

    private static void cancelGrace(AtomicReference<Cancellable> timer) {
        Cancellable grace = timer.getAndSet(null);
        if (grace != null) {
            grace.cancel();
        }
    }

    /** Performs the due effects side by side; each outcome becomes an event for the interpreter. */
    private Uni<List<RunEvent>> perform(UUID runId, List<Effect> due, ActionGateway.Fence fence) {
        if (due.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<Uni<RunEvent>> calls = due.stream().map(effect -> outcome(runId, effect, fence)).toList();
        return Uni.join().all(calls).andFailFast();
    }

    private Uni<RunEvent> outcome(UUID runId, Effect effect, ActionGateway.Fence fence) {
        return switch (effect) {
            case Effect.StartAction start -> {
                listenFor(runId, start);
                yield gateway.start(runId, start, new ActionGateway.FinishReport(
                                callbacks.forAction(runId, start.token()), status -> deliver(runId, start.token(), status)), fence)
                        .<RunEvent>map(observation -> new RunEvent.ActionStarted(start.token(), observation))
                        .onFailure(ActionGateway.ActionCallException.class)
                        .recoverWithItem(e -> callFailed(start.token(), e))
                        .onFailure(SignInRequired.class).recoverWithItem(e -> consentRequired(runId, start.token(), e));
            }
            case Effect.PollAction poll -> {
                putOffSafetyPoll(runId, poll.token());
                yield gateway.poll(runId, poll)
                        .<RunEvent>map(observation -> new RunEvent.ActionPolled(poll.token(), observation))
                        .onFailure(ActionGateway.ActionCallException.class)
                        .recoverWithItem(e -> callFailed(poll.token(), e))
                        .onFailure(SignInRequired.class).recoverWithItem(e -> consentRequired(runId, poll.token(), e));
            }
            case Effect.ScheduleTimer timer -> Uni.createFrom().item(new RunEvent.TimerFired(timer.token()));
            case Effect.CancelAction cancel -> Uni.createFrom().failure(new IllegalStateException("cancel is not due work"));
            case Effect.ReleaseAction release -> Uni.createFrom().failure(new IllegalStateException("release is not due work"));
        };
    }

    /** An in-process action's finish will come to {@link #deliver}: noted before the start, which may call it at once. */
    private void listenFor(UUID runId, Effect.StartAction start) {
        if (gateway.inProcess(start.actionUrl())) {
            if (reported.size() > 100_000) {
                reported.clear(); // bounded memory (runs taken over elsewhere whose action never finished): they are polled
            }
            reported.computeIfAbsent(runId, id -> new ConcurrentHashMap<>()).put(start.token(), clock.instant().plus(settings.pollMax()));
        }
    }

    /** A reported action is being polled (its safety poll, or the run woke for it otherwise): the next one a backoff cap on. */
    private void putOffSafetyPoll(UUID runId, String token) {
        Map<String, Instant> tokens = reported.get(runId);
        if (tokens != null) {
            tokens.computeIfPresent(token, (t, at) -> clock.instant().plus(settings.pollMax()));
        }
    }

    /** No token for the provider: the run waits INACTIVE for its owner to sign in again and resume it. */
    private static RunEvent consentRequired(UUID runId, String token, Throwable failure) {
        RunLogs.about(runId, () -> LOG.warnf("run %s is now INACTIVE: %s", runId, failure.getMessage()));
        return new RunEvent.ConsentRequired(token, failure.getMessage());
    }

    /**
     * Queues an action's final status for the run and nudges it; false (nothing queued) when the run
     * is unknown or already finished. Pushed callbacks and in-process finishes both arrive here.
     */
    @Override
    public Uni<Boolean> queue(UUID runId, String token, JsonNode status) {
        return runs.push(runId, token, status, clock.instant()).invoke(accepted -> {
            if (accepted) {
                nudge(runId);
            }
        });
    }

    /**
     * An in-process provider's late finish: kept in memory for the run's next turn on this instance (the
     * turn under way, or one started now by a claim) rather than written to run_inbox and read back.
     */
    private void deliver(UUID runId, String token, JsonNode status) {
        // The token stays in reported until the turn that takes this finish commits (its poll is not due meanwhile).
        mailbox.compute(runId, (id, waiting) -> {
            List<LocalFinish> finishes = waiting == null ? new ArrayList<>() : waiting;
            finishes.add(new LocalFinish(token, status));
            return finishes;
        });
        Runnable waiting = awaitingFinish.get(runId);
        if (waiting != null) { // the drive kept the lease for it
            waiting.run();
        } else if (!driving.contains(runId)) { // else the drive's next turn takes it (stoppedDriving sees it, too late for that)
            loop.execute(() -> nudge(runId));
        }
    }

    /** An in-process finish this instance cannot take to a commit: queued like a pushed callback. */
    private void toInbox(UUID runId, LocalFinish finish) {
        Map<String, Instant> tokens = reported.get(runId);
        if (tokens != null) {
            tokens.remove(finish.token()); // the run's holder takes it from run_inbox; nothing more to be told of here
        }
        loop.execute(() -> queue(runId, finish.token(), finish.status()).subscribe().with(
                accepted -> { },
                failure -> LOG.warnf("could not queue the finish of an action of run %s (polling will find it): %s",
                        runId, failure.getMessage())));
    }

    private List<LocalFinish> takeMailbox(UUID runId) {
        List<LocalFinish> taken = mailbox.remove(runId);
        return taken == null ? List.of() : taken;
    }

    /** A turn failed before committing what it took: the next turn (or scan) takes them again. */
    private void giveBack(UUID runId, List<LocalFinish> local) {
        if (!local.isEmpty()) {
            mailbox.merge(runId, new ArrayList<>(local), (now, back) -> {
                back.addAll(now);
                return back;
            });
        }
    }

    /** An action's final status, from a provider in this process. */
    private record LocalFinish(String token, JsonNode status) {}

    private static RunEvent callFailed(String token, Throwable failure) {
        ActionGateway.ActionCallException e = (ActionGateway.ActionCallException) failure;
        return new RunEvent.ActionCallFailed(token, e.error(), e.getMessage());
    }

    /** Cancel/release calls, best effort, side by side; a finished run's grants are dropped once those calls have their tokens. */
    private void fireAndForget(UUID runId, List<Effect> effects, boolean finished) {
        if (effects.isEmpty() && !finished) {
            return;
        }
        List<Uni<Void>> calls = new ArrayList<>(effects.size());
        for (Effect effect : effects) {
            Uni<Void> call = switch (effect) {
                case Effect.CancelAction cancel -> gateway.cancel(runId, cancel);
                case Effect.ReleaseAction release -> gateway.release(runId, release);
                default -> Uni.createFrom().voidItem();
            };
            calls.add(call.onFailure().recoverWithUni(failure -> {
                LOG.infof("best-effort %s failed: %s", effect, failure.getMessage());
                return Uni.createFrom().voidItem();
            }));
        }
        Uni<Void> sent = calls.isEmpty() ? Uni.createFrom().voidItem() : Uni.join().all(calls).andFailFast().replaceWithVoid();
        if (finished) {
            sent = sent.flatMap(v -> tokens.forget(runId)).onFailure().invoke(failure ->
                    LOG.infof("could not drop the grants of finished run %s: %s", runId, failure.getMessage()));
        }
        sent.subscribe().with(ok -> { }, failure -> { });
    }

    private static RunEvent inboxEvent(RunStore.InboxItem item) {
        return switch (item.token()) {
            case CANCEL_TOKEN -> new RunEvent.CancelRequested(item.status().path("reason").asText("cancelled on request"));
            case RESUME_TOKEN -> new RunEvent.ResumeRequested();
            default -> new RunEvent.ActionPolled(item.token(), observation(item.status()));
        };
    }

    /** A pushed completion has the Globus action status shape. */
    static ActionObservation observation(JsonNode status) {
        return new ActionObservation(status.path("action_id").asText(null), status.path("status").asText("ACTIVE"),
                status.path("details"), status.path("display_status").asText(null));
    }
}
