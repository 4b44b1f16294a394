package dev.continuum.engine.app.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.app.FlowService;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.RunSources;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Chaining: a run reaching a status fires the active {@code run} triggers that want it (docs/triggers.md#chaining),
 * each at most once per (run, status) — the dedup key under the trigger_events unique index. The trigger's owner
 * must be allowed to see the run: if they may see its flow but not the run, the event is recorded as rejected with
 * that reason; runs of flows they may not see are not recorded at all, so a trigger learns nothing of them.
 *
 * <p>Fed by the run-event stream; because a change committed just before a crash is never published, {@link #catchUp}
 * looks for finished runs that a trigger has no event for (at start and every minute).
 */
@ApplicationScoped
public class RunChains {

    private static final Logger LOG = Logger.getLogger(RunChains.class);
    /** The catch-up leaves the newest runs to the stream, so the two rarely meet on one event. */
    static final Duration SETTLE = Duration.ofSeconds(30);
    static final int CATCH_UP_LIMIT = 500;
    /** How far back the catch-up looks (a crash's lost changes are minutes old when the engine is back). */
    static final Duration CATCH_UP_WINDOW = Duration.ofHours(1);

    private final TriggerStore store;
    private final TriggerService triggers;
    private final RunService runs;
    private final RunStore runStore;
    private final FlowService flows;
    private final OwnerGrants grants;
    private final Clock clock;

    public RunChains(TriggerStore store, TriggerService triggers, RunService runs, RunStore runStore, FlowService flows,
                     OwnerGrants grants, Clock clock) {
        this.runStore = runStore;
        this.store = store;
        this.triggers = triggers;
        this.runs = runs;
        this.flows = flows;
        this.grants = grants;
        this.clock = clock;
    }

    /** A run reached {@code status} (a committed change): the outcomes of the triggers that wanted it. */
    public Uni<List<EventOutcome>> reached(UUID runId, UUID flowId, String status) {
        if (!RunSources.STATUSES.contains(status)) {
            return Uni.createFrom().item(List.of());
        }
        return store.activeRecently(RunSources.TYPE).flatMap(active -> {
            List<Trigger> wanting = active.stream().filter(t -> RunSources.wants(t, flowId, status, false)).toList();
            if (wanting.isEmpty()) {
                return Uni.createFrom().item(List.<EventOutcome>of());
            }
            return runStore.find(runId).flatMap(found -> found.map(run -> fireAll(wanting, run, status))
                    .orElseGet(() -> Uni.createFrom().item(List.of())));
        });
    }

    private Uni<List<EventOutcome>> fireAll(List<Trigger> wanting, RunRecord run, String status) {
        return Multi.createFrom().iterable(wanting)
                .select().where(trigger -> RunSources.wants(trigger, run.flowId(), status, run.tags().contains("trigger:" + trigger.id())))
                .onItem().transformToUniAndConcatenate(trigger -> fireOne(trigger, run, status)
                        .onFailure(EngineError.class).recoverWithItem(e -> { // a claim held elsewhere: that handler records it
                            LOG.debugf("trigger %s, run %s %s: %s", trigger.id(), run.id(), status, e.getMessage());
                            return null;
                        }))
                .select().where(java.util.Objects::nonNull)
                .collect().asList();
    }

    private Uni<EventOutcome> fireOne(Trigger trigger, RunRecord run, String status) {
        Viewer owner = grants.starter(trigger.ownerId());
        Instant now = clock.instant();
        String key = RunSources.dedupKey(run.id(), status);
        return runs.get(run.id(), owner)
                .flatMap(visible -> triggers.fire(trigger, new TriggerEvent(key, event(visible, status), now)))
                .onFailure(e -> e instanceof EngineError error && error.kind() == EngineError.Kind.NOT_FOUND).recoverWithUni(hidden ->
                        flows.visible(run.flowId(), owner)
                                .flatMap(flow -> triggers.reject(trigger, new TriggerEvent(key, bare(run, status), now),
                                        "the trigger's owner " + trigger.ownerId() + " may not see run " + run.id()))
                                .onFailure(e -> e instanceof EngineError error && error.kind() == EngineError.Kind.NOT_FOUND)
                                .recoverWithNull());
    }

    /** What a run trigger's filter and input template read: the run as its owner's GET /runs/{id} shows it, in short. */
    static JsonNode event(RunRecord run, String status) {
        ObjectNode event = bare(run, status);
        event.put("flow_id", run.flowId().toString());
        event.put("flow_version", run.flowVersion());
        event.put("owner", run.ownerId());
        if (run.label() != null) {
            event.put("label", run.label());
        }
        run.tags().forEach(event.putArray("tags")::add);
        if (run.tags().isEmpty()) {
            event.putArray("tags");
        }
        run.state().output().ifPresent(output -> event.set("output", output));
        run.state().error().ifPresent(error -> event.put("error", error));
        if (run.completedAt() != null) {
            event.put("completion_time", run.completedAt().toString());
        }
        return event;
    }

    private static ObjectNode bare(RunRecord run, String status) {
        ObjectNode event = JsonNodeFactory.instance.objectNode();
        event.put("run_id", run.id().toString());
        event.put("status", status);
        return event;
    }

    /**
     * Finished runs that an active run trigger wants and has no event for, completed after the trigger was made, within
     * the last {@link #CATCH_UP_WINDOW} and more than {@link #SETTLE} ago: the changes the stream lost in a crash. Returns how many were fired.
     */
    public Uni<Integer> catchUp() {
        Instant now = clock.instant();
        Instant before = now.minus(SETTLE);
        Instant horizon = now.minus(CATCH_UP_WINDOW);
        return store.active(RunSources.TYPE)
                .onItem().transformToMulti(active -> Multi.createFrom().iterable(active))
                .onItem().transformToUniAndConcatenate(trigger -> store.unchained(trigger.id(), RunSources.statuses(trigger),
                                RunSources.flow(trigger).orElse(null),
                                trigger.createdAt().isAfter(horizon) ? trigger.createdAt() : horizon, before, CATCH_UP_LIMIT)
                        .onItem().transformToMulti(missed -> Multi.createFrom().iterable(missed))
                        .onItem().transformToUniAndConcatenate(missed -> reached(missed.runId(), missed.flowId(), missed.status()))
                        .collect().asList().map(List::size))
                .collect().asList().map(counts -> counts.stream().mapToInt(Integer::intValue).sum());
    }
}
