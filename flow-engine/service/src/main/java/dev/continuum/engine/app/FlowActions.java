package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.domain.CallingRun;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.RunState;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.UUID;

/**
 * Every flow as an action provider (docs/api.md, "Flows as action providers"): an action is a child run of the flow,
 * started as the caller, so the caller must be allowed to start the flow. The child's id derives from (flow, caller,
 * request_id), so a repeated request_id answers the same run, across retries and engine restarts.
 */
@ApplicationScoped
public class FlowActions {

    /**
     * The run and Action state (and the token it waits on) that call a flow; links the child to it. A parent of
     * another engine has no token here: nothing of this engine waits on the child.
     */
    public record Parent(UUID runId, String state, String token) {
        public static Parent remote(CallingRun caller) {
            return new Parent(caller.runId(), caller.state(), null);
        }

        boolean onAnotherEngine() {
            return token == null;
        }
    }

    private final RunService runs;
    private final RunStore store;
    private final RunLinks links;
    private final Driver driver;
    private final int maxDepth;
    /** Child runs started or found here and not yet seen finishing: only their finish is looked up for a parent. */
    private final java.util.Set<UUID> watched = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public FlowActions(RunService runs, RunStore store, RunLinks links, Driver driver, EngineConfig config) {
        this.driver = driver;
        this.runs = runs;
        this.store = store;
        this.links = links;
        this.maxDepth = config.runs().maxFlowDepth();
    }

    /** Starts the child run for {@code requestId}, or answers the one already started for it. */
    public Uni<ActionObservation> run(UUID flowId, String requestId, RunService.StartRequest request, Viewer viewer,
                                      RunService.Credentials credentials, Optional<Parent> parent) {
        // Who may start the flow is settled before the request is looked at: a stranger learns nothing from its errors.
        return runs.startable(flowId, viewer).flatMap(flow -> {
            if (requestId == null || requestId.isBlank()) {
                throw EngineError.invalidField("/request_id", "A request_id is required: it makes a repeated run answer the same action.");
            }
            return childRun(flowId, childId(flowId, viewer.id(), requestId), requestId, request, viewer, credentials, parent);
        });
    }

    private Uni<ActionObservation> childRun(UUID flowId, UUID childId, String requestId, RunService.StartRequest request,
                                            Viewer viewer, RunService.Credentials credentials, Optional<Parent> parent) {
        // watched before the start: a child can finish before its start is answered
        if (parent.isPresent() && !parent.get().onAnotherEngine()) {
            watched.add(childId);
        }
        return store.find(childId).flatMap(found -> found.isPresent()
                ? Uni.createFrom().item(observation(found.get()))
                : link(flowId, childId, requestId, parent)
                        .flatMap(linked -> runs.start(flowId, null, childId, request, viewer, credentials))
                        .map(started -> observation(started.run())))
                .invoke(answer -> {
                    if (!"ACTIVE".equals(answer.status()) && !"INACTIVE".equals(answer.status())) {
                        watched.remove(childId); // finished already: its answer says so, and no finish event will come
                    }
                })
                .onFailure().invoke(() -> watched.remove(childId));
    }

    /**
     * A run committed a finish: when it is a child this engine started, its status is queued for the parent's waiting
     * Action (durably, in run_inbox), so the parent goes on now instead of at its next poll, which stays the fallback
     * (a child driven by another instance, or one started before a restart, is found by polling).
     */
    public Uni<Void> finished(UUID runId) {
        if (!watched.remove(runId)) {
            return Uni.createFrom().voidItem();
        }
        return links.parentOf(runId).flatMap(link -> link.isEmpty() || link.get().parentToken() == null
                ? Uni.createFrom().voidItem()
                : store.find(runId).flatMap(child -> child.isEmpty() ? Uni.createFrom().voidItem()
                        : driver.queue(link.get().parent(), link.get().parentToken(), statusJson(observation(child.get())))
                                .replaceWithVoid()));
    }

    private static JsonNode statusJson(ActionObservation action) {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.put("action_id", action.actionId());
        status.put("status", action.status());
        status.put("display_status", action.displayStatus());
        status.set("details", action.details());
        return status;
    }

    /**
     * The action id is the child run's id; any run the viewer may see answers, whichever flow's path asked (the
     * run's own roles decide, as at {@code /runs/{id}}).
     */
    public Uni<ActionObservation> status(UUID actionId, Viewer viewer) {
        return runs.get(actionId, viewer).map(FlowActions::observation);
    }

    /** Cancels the child run; one already finished just answers its status. */
    public Uni<ActionObservation> cancel(UUID actionId, Viewer viewer) {
        return runs.get(actionId, viewer).flatMap(run -> run.state().status().finished()
                ? Uni.createFrom().item(observation(run))
                : runs.cancel(actionId, "its parent's action was cancelled", viewer).map(FlowActions::observation));
    }

    /**
     * Releasing the action forgets nothing: the child is a run of its own, with its log, kept until it is released
     * through {@code /runs/{id}/release} like any run.
     */
    public Uni<ActionObservation> release(UUID actionId, Viewer viewer) {
        return status(actionId, viewer);
    }

    /** The parent that started a run (none for a run started otherwise) and the children it started. */
    public record Lineage(UUID parentRunId, String parentState, java.util.List<UUID> childRunIds) {}

    public Uni<Lineage> lineage(UUID runId) {
        return links.parentOf(runId).flatMap(parent -> links.children(runId).map(children -> new Lineage(
                parent.map(RunLinks.Link::parent).orElse(null), parent.map(RunLinks.Link::parentState).orElse(null), children)));
    }

    /** The child run's log, oldest first. */
    public Uni<java.util.List<RunEventRecord>> log(UUID actionId, int limit, Viewer viewer) {
        return runs.log(actionId, Optional.empty(), false, limit, viewer);
    }

    /**
     * The link to the parent, written before the child so that no child is ever without it; refused past the depth
     * limit, and when the child's flow already runs in the parent's chain (a cycle of calls never ends by itself).
     */
    private Uni<Void> link(UUID flowId, UUID childId, String requestId, Optional<Parent> parent) {
        if (parent.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        if (parent.get().onAnotherEngine()) {
            // A run of this engine calls its flows in process: a caller over HTTP naming one is not believed, or it
            // could add children to someone else's run. Depth is not known across engines: the link counts from 1.
            return store.find(parent.get().runId()).flatMap(local -> local.isPresent() ? Uni.createFrom().voidItem()
                    : links.add(new RunLinks.Link(childId, parent.get().runId(), parent.get().state(), null, requestId, 1)));
        }
        return links.parentOf(parent.get().runId()).flatMap(above -> {
            int depth = above.map(link -> link.depth() + 1).orElse(1);
            if (depth > maxDepth) {
                throw new FlowCallRefused(FlowCallRefused.TOO_DEEP, "Run " + parent.get().runId() + " is already "
                        + (depth - 1) + " flow calls deep; a child run would exceed the limit of " + maxDepth
                        + " (continuum.runs.max-flow-depth).");
            }
            return refuseCycle(flowId, parent.get().runId(), depth)
                    .flatMap(none -> links.add(new RunLinks.Link(childId, parent.get().runId(), parent.get().state(),
                            parent.get().token(), requestId, depth)));
        });
    }

    /** Walks from {@code runId} up its parent links (at most {@code left} runs): none may be a run of {@code flowId}. */
    private Uni<Void> refuseCycle(UUID flowId, UUID runId, int left) {
        return store.find(runId).flatMap(run -> {
            if (run.isPresent() && run.get().flowId().equals(flowId)) {
                throw new FlowCallRefused(FlowCallRefused.CYCLE, "Flow " + flowId + " is already running above this call"
                        + " (run " + runId + "): a flow may not call itself, directly or through other flows.");
            }
            return left <= 1 ? Uni.createFrom().voidItem() : links.parentOf(runId).flatMap(above -> above.isEmpty()
                    ? Uni.createFrom().voidItem() : refuseCycle(flowId, above.get().parent(), left - 1));
        });
    }

    static UUID childId(UUID flowId, String callerId, String requestId) {
        return UUID.nameUUIDFromBytes(("flow-action\n" + flowId + "\n" + callerId + "\n" + requestId)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The child run as an action status: its output when it succeeded, its error and cause when it failed. */
    static ActionObservation observation(RunRecord run) {
        RunState state = run.state();
        return switch (state.status()) {
            case ACTIVE -> new ActionObservation(run.id().toString(), "ACTIVE", JsonNodeFactory.instance.objectNode(),
                    "Run " + run.id() + " is running");
            case INACTIVE -> new ActionObservation(run.id().toString(), "INACTIVE", JsonNodeFactory.instance.objectNode(),
                    state.inactiveReason().orElse("Run " + run.id() + " is waiting"));
            case SUCCEEDED -> new ActionObservation(run.id().toString(), "SUCCEEDED",
                    state.output().orElse(JsonNodeFactory.instance.objectNode()), "Run " + run.id() + " succeeded");
            case FAILED, ENDED -> new ActionObservation(run.id().toString(), "FAILED", failure(run),
                    "Run " + run.id() + (state.status() == dev.continuum.flow.run.RunStatus.ENDED ? " was cancelled" : " failed"));
        };
    }

    private static JsonNode failure(RunRecord run) {
        ObjectNode details = JsonNodeFactory.instance.objectNode();
        details.put("run_id", run.id().toString());
        details.put("error", run.state().error().orElse(null));
        details.put("cause", run.state().cause().orElse(null));
        run.state().failedState().ifPresent(state -> details.put("state", state));
        return details;
    }
}
