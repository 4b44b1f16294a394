package dev.continuum.engine.app.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.Access;
import dev.continuum.engine.app.AccessDenied;
import dev.continuum.engine.app.FlowService;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.app.SignInRequired;
import dev.continuum.engine.app.Slice;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.triggers.BrokerMessages;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.RunSources;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerDraft;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import dev.continuum.engine.domain.triggers.TriggerRules;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Trigger use cases: manage triggers (owner, administrators, viewers) and turn events into at most one run each. */
@ApplicationScoped
public class TriggerService {

    /** How long one handler owns an event before a redelivery may take it over (a crash in between). */
    static final Duration CLAIM = Duration.ofSeconds(30);

    private final TriggerStore store;
    private final FlowService flows;
    private final RunService runService;
    private final RunStore runs;
    private final OwnerGrants grants;
    private final TriggerMetrics metrics;
    private final TimerStore timers;
    private final BrokerChannels channels;
    private final Clock clock;
    private final FileWatchList fileWatches;

    public TriggerService(TriggerStore store, FlowService flows, RunService runService, RunStore runs, OwnerGrants grants,
                          TriggerMetrics metrics, TimerStore timers, BrokerChannels channels, Clock clock,
                          FileWatchList fileWatches) {
        this.fileWatches = fileWatches;
        this.timers = timers;
        this.channels = channels;
        this.store = store;
        this.flows = flows;
        this.runService = runService;
        this.runs = runs;
        this.grants = grants;
        this.metrics = metrics;
        this.clock = clock;
    }

    public Uni<Trigger> create(TriggerDraft draft, Viewer caller, boolean administrator, Optional<String> token) {
        checkRunAs(draft, administrator);
        return checked(draft, starter(draft, caller.id(), caller)).flatMap(ok -> {
            var now = clock.instant();
            Trigger trigger = new Trigger(UUID.randomUUID(), caller.id(), draft, false, 0, now, now);
            return grants.keep(trigger.id(), token)
                    .flatMap(kept -> store.insert(trigger))
                    .call(() -> schedule(trigger))
                    .call(() -> fileWatches.refresh(trigger))
                    .onFailure().call(() -> grants.forget(trigger.id()).onFailure().recoverWithNull())
                    .replaceWith(trigger);
        });
    }

    /**
     * {@code run_as: service_account}: this engine must have the trigger service account, and only an administrator
     * (realm role continuum-admin) may bind a trigger to it, since its runs then act as that account, not as a person.
     */
    private void checkRunAs(TriggerDraft draft, boolean administrator) {
        if (!draft.runsAsServiceAccount()) {
            return;
        }
        if (grants.serviceAccount().isEmpty()) {
            throw EngineError.invalidField("/run_as", "this engine has no trigger service account: its operator sets "
                    + "continuum.auth.trigger-client-id and continuum.auth.trigger-client-secret");
        }
        if (!administrator) {
            throw new AccessDenied("Only an administrator may bind a trigger to the service account " + grants.serviceAccount().get() + ".");
        }
    }

    /** Who starts the trigger's runs: its owner, or the service account it is bound to. */
    private Viewer starter(TriggerDraft draft, String ownerId, Viewer owner) {
        return draft.runsAsServiceAccount() ? grants.starter(grants.serviceAccount().orElseThrow()) : owner;
    }

    /** The draft is valid and the caller may start its flow (at the pinned version, when pinned). */
    private Uni<Void> checked(TriggerDraft draft, Viewer caller) {
        List<EngineError.FieldIssue> issues = new java.util.ArrayList<>(TriggerRules.check(draft));
        if (issues.isEmpty() && draft.source().path("type").asText().equals("timer")) {
            TimerSchedule.parse(draft.source(), issues);
        }
        if (issues.isEmpty() && draft.source().path("type").asText().equals(FileSources.TYPE)) {
            FileSources.check(draft.source(), issues);
        }
        if (issues.isEmpty() && draft.source().path("type").asText().equals(FileSources.TYPE) && !fileWatches.available()) {
            issues.add(new EngineError.FieldIssue("/source/type",
                    "file triggers need the engine connected to the edge broker (continuum.edge.broker)"));
        }
        String type = draft.source() == null ? "" : draft.source().path("type").asText();
        if (issues.isEmpty() && BrokerMessages.fedByBroker(type) && !channels.receives(type)) {
            issues.add(new EngineError.FieldIssue("/source/type", "this engine takes no " + type
                    + " messages: its operator turns them on with " + channels.enabledKey(type) + "=true"));
        }
        if (!issues.isEmpty()) {
            throw EngineError.invalid("Invalid trigger", issues.get(0).pointer() + ": " + issues.get(0).message(), issues);
        }
        return upstreamVisible(draft, caller).chain(() -> flows.visible(draft.flowId(), caller))
                .onFailure(EngineError.class).transform(e -> e instanceof EngineError error && error.kind() == EngineError.Kind.INVALID
                        ? e : EngineError.invalidField("/flow_id", "no flow " + draft.flowId() + " that you may see"))
                .flatMap(flow -> {
                    if (caller.restricted() && !Access.startsFlow(flow, caller.id())) {
                        throw new AccessDenied("You may see flow " + flow.id() + " but not start it, so no trigger of yours may.");
                    }
                    return draft.flowVersion() == null ? Uni.createFrom().voidItem()
                            : flows.version(draft.flowId(), draft.flowVersion()).replaceWithVoid()
                            .onFailure(EngineError.class).transform(e -> EngineError.invalidField("/flow_version",
                                    "flow " + draft.flowId() + " has no version " + draft.flowVersion()));
                });
    }

    /** A {@code run} trigger limited to one upstream flow: its owner must be allowed to see that flow. */
    private Uni<Void> upstreamVisible(TriggerDraft draft, Viewer caller) {
        var upstream = draft.source().path("type").asText().equals(RunSources.TYPE)
                ? RunSources.flow(draft.source()) : java.util.Optional.<UUID>empty();
        return upstream.map(flowId -> flows.visible(flowId, caller).replaceWithVoid()
                        .onFailure(EngineError.class).transform(e -> (Throwable) EngineError.invalidField("/source/flow_id",
                                "no flow " + flowId + " that you may see, so no run of it can start this trigger")))
                .orElseGet(() -> Uni.createFrom().voidItem());
    }

    /**
     * The trigger if the viewer may see it; otherwise "not found", as if it did not exist. Every use case looks the
     * trigger up (and checks the caller's role on it) before it reads the request's body: a caller without the role
     * learns 404 or 403, never what is wrong with a body they may not send.
     */
    public Uni<Trigger> get(UUID id, Viewer viewer) {
        return store.find(id).map(found -> found.filter(t -> !viewer.restricted() || t.seenBy(viewer.id()))
                .orElseThrow(() -> EngineError.notFound("Trigger", id.toString())));
    }

    Uni<Trigger> administered(UUID id, Viewer viewer) {
        return get(id, viewer).map(trigger -> {
            if (viewer.restricted() && !trigger.administeredBy(viewer.id())) {
                throw new AccessDenied("You may see trigger " + id + " but not change it: its owner or an administrator may.");
            }
            return trigger;
        });
    }

    public Uni<List<Trigger>> list(Viewer viewer, int limit) {
        return store.list(viewer, limit);
    }

    /**
     * Replaces the trigger's settings. Runs still start as the owner; when the owner changes it, the grant is
     * renewed from their current token.
     */
    public Uni<Trigger> update(UUID id, TriggerDraft draft, Viewer viewer, boolean administrator, Optional<String> token) {
        // binding a trigger to the service account is an administrator's; keeping it bound, anyone's who may change it
        return administered(id, viewer).invoke(trigger -> {
                    if (draft == null) {
                        throw EngineError.invalidField("", "A JSON body is required.");
                    }
                    checkRunAs(draft, administrator || trigger.spec().runsAsServiceAccount());
                })
                .flatMap(trigger -> checked(draft, starter(draft, trigger.ownerId(), grants.starter(trigger.ownerId())))
                .flatMap(ok -> trigger.ownerId().equals(viewer.id()) ? grants.keep(id, token) : Uni.createFrom().voidItem())
                .map(ok -> new Trigger(id, trigger.ownerId(), draft, trigger.paused(), trigger.consecutiveFailures(),
                        trigger.createdAt(), clock.instant()))
                .call(store::update).call(this::schedule)
                // the gateway it watched before (maybe another one) and the one it watches now
                .call(updated -> fileWatches.refresh(trigger, updated)));
    }

    public Uni<Void> delete(UUID id, Viewer viewer) {
        return administered(id, viewer).call(trigger -> store.delete(id)).call(() -> grants.forget(id))
                .call(trigger -> fileWatches.refresh(trigger)).replaceWithVoid();
    }

    /** Pauses or resumes; resuming clears the failure count (the owner has looked at it). */
    public Uni<Trigger> pause(UUID id, boolean paused, Viewer viewer) {
        return administered(id, viewer).map(trigger -> new Trigger(id, trigger.ownerId(), trigger.spec(), paused,
                paused ? trigger.consecutiveFailures() : 0, trigger.createdAt(), clock.instant())).call(store::update)
                .call(t -> paused ? Uni.createFrom().voidItem() : schedule(t))
                .call(t -> fileWatches.refresh(t));
    }

    /**
     * A timer's next tick from now (create, update, resume): ticks missed while paused are not caught up; ticks
     * missed while the engine was down are, by the timer's catch_up policy.
     */
    private Uni<Void> schedule(Trigger trigger) {
        if (!trigger.sourceType().equals("timer")) {
            return Uni.createFrom().voidItem();
        }
        TimerSchedule schedule = TimerSchedule.parse(trigger.spec().source(), new java.util.ArrayList<>()).orElseThrow();
        return timers.schedule(trigger.id(), schedule.next(clock.instant()).orElse(null));
    }

    /** Pauses a trigger whose last runs all failed; the event list says why. */
    Uni<Void> pauseForFailures(Trigger trigger, int failed) {
        var now = clock.instant();
        return store.update(new Trigger(trigger.id(), trigger.ownerId(), trigger.spec(), true, trigger.consecutiveFailures(),
                        trigger.createdAt(), now))
                .call(() -> skip(trigger, new TriggerEvent("paused:" + now, null, now),
                        "paused: the last " + failed + " runs failed (pause_after_failures)"));
    }

    /** Records an event that starts nothing on purpose (a timer tick skipped while a run is going). */
    Uni<EventOutcome> skip(Trigger trigger, TriggerEvent event, String reason) {
        return record(trigger, event, new EventOutcome.FilteredOut(reason));
    }

    /** Records an event the trigger may not act on (a chained run its owner may not see), with the reason. */
    Uni<EventOutcome> reject(Trigger trigger, TriggerEvent event, String reason) {
        return record(trigger, event, new EventOutcome.Rejected(reason));
    }

    private Uni<EventOutcome> record(Trigger trigger, TriggerEvent event, EventOutcome outcome) {
        var now = clock.instant();
        return store.claim(trigger.id(), event, null, now, now.plus(CLAIM)).flatMap(claim -> claim instanceof TriggerStore.Claim.Owned owned
                ? store.finish(trigger.id(), owned.eventId(), outcome).replaceWith(outcome)
                : Uni.createFrom().item((EventOutcome) new EventOutcome.Duplicate(null, outcome.name())))
                .invoke(recorded -> metrics.counted(trigger.sourceType(), recorded));
    }

    public Uni<Slice<TriggerStore.EventRecord>> events(UUID id, List<String> after, int limit, Viewer viewer) {
        return get(id, viewer).flatMap(trigger -> store.events(id, after, limit));
    }

    /**
     * Fires the trigger with a sample event, as its source would (a fresh dedup key each time). With
     * {@code dryRun} nothing is recorded or started: the answer is the input the run would get.
     */
    public Uni<EventOutcome> test(UUID id, JsonNode sample, boolean dryRun, Viewer viewer) {
        return administered(id, viewer).flatMap(trigger -> {
            if (sample == null || !sample.isObject()) {
                throw EngineError.invalidField("/event", "a sample event (a JSON object) is required");
            }
            TriggerEvent event = new TriggerEvent("test:" + UUID.randomUUID(), sample, clock.instant());
            if (!dryRun) {
                return fire(trigger, event);
            }
            return Uni.createFrom().item(switch (TriggerRules.decide(trigger, event)) {
                case TriggerRules.Decision.Start start -> new EventOutcome.DryRun(start.input());
                case TriggerRules.Decision.Skip skip -> skip.outcome();
            });
        });
    }

    /** An event posted by a person or script to an "api" trigger they administer, named by its dedup key. */
    public Uni<EventOutcome> deliver(UUID id, String dedupKey, JsonNode event, Viewer viewer) {
        return administered(id, viewer).flatMap(trigger -> {
            if (dedupKey == null || dedupKey.isBlank() || dedupKey.length() > 256) {
                throw EngineError.invalidField("/dedup_key", "a key of 1 to 256 characters naming this event is required");
            }
            if (!trigger.sourceType().equals("api")) {
                throw EngineError.invalidField("/source/type", "trigger " + id + " takes its events from its "
                        + trigger.sourceType() + " source, not from this endpoint");
            }
            return fire(trigger, new TriggerEvent("api:" + dedupKey, event, clock.instant()));
        });
    }

    /** An event from the trigger's source: recorded once under its dedup key, and at most one run started for it. */
    public Uni<EventOutcome> fire(UUID triggerId, TriggerEvent event) {
        return store.find(triggerId).flatMap(found -> fire(found.orElseThrow(
                () -> EngineError.notFound("Trigger", triggerId.toString())), event));
    }

    public Uni<EventOutcome> fire(Trigger trigger, TriggerEvent event) {
        UUID runId = TriggerRules.runIdFor(trigger.id(), event.dedupKey());
        var now = clock.instant();
        return store.claim(trigger.id(), event, runId, now, now.plus(CLAIM)).flatMap(claim -> switch (claim) {
            case TriggerStore.Claim.Seen seen -> Uni.createFrom().<EventOutcome>item(seen.duplicate());
            case TriggerStore.Claim.Busy busy -> throw EngineError.conflict("Event being handled",
                    "Event '" + event.dedupKey() + "' is being handled now; deliver it again later.");
            case TriggerStore.Claim.Owned owned -> handle(trigger, event, runId)
                    .onFailure().call(() -> store.release(owned.eventId()).onFailure().recoverWithNull())
                    .call(outcome -> store.finish(trigger.id(), owned.eventId(), outcome));
        }).invoke(outcome -> metrics.counted(trigger.sourceType(), outcome));
    }

    private Uni<EventOutcome> handle(Trigger trigger, TriggerEvent event, UUID runId) {
        if (trigger.paused()) {
            return Uni.createFrom().item(new EventOutcome.Rejected("the trigger is paused"));
        }
        return switch (TriggerRules.decide(trigger, event)) {
            case TriggerRules.Decision.Skip skip -> Uni.createFrom().item(skip.outcome());
            // A run with this id exists: an earlier delivery started it and crashed before recording so.
            case TriggerRules.Decision.Start start -> runs.find(runId).flatMap(existing -> existing.isPresent()
                    ? Uni.createFrom().item(new EventOutcome.Started(runId))
                    : start(trigger, start.input(), runId));
        };
    }

    private Uni<EventOutcome> start(Trigger trigger, JsonNode input, UUID runId) {
        var spec = trigger.spec();
        // a service account's runs are managed by the trigger's owner too, who would otherwise not see them
        var request = new RunService.StartRequest(input, spec.runLabel() != null ? spec.runLabel() : spec.title(),
                trigger.runTags(), spec.runsAsServiceAccount() ? List.of(trigger.ownerId()) : null, null);
        Uni<RunService.Credentials> credentials = spec.runsAsServiceAccount() && grants.serviceAccount().isPresent()
                ? grants.serviceAccountCredentials() : grants.credentials(trigger.id());
        return credentials
                .flatMap(given -> runService.start(spec.flowId(), spec.flowVersion(), runId, request,
                        starter(spec, trigger.ownerId(), grants.starter(trigger.ownerId())), given))
                .<EventOutcome>map(started -> new EventOutcome.Started(runId))
                // The event is fine to keep but cannot start a run as it is: record why, and let the source ack it.
                .onFailure(e -> e instanceof EngineError || e instanceof AccessDenied || e instanceof SignInRequired)
                .recoverWithItem(e -> new EventOutcome.Rejected(e.getMessage()));
    }
}
