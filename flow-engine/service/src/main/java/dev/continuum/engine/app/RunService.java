package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.EngineError.FieldIssue;
import dev.continuum.flow.data.JsonSize;
import dev.continuum.flow.model.FormAction;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.RunContext;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.flow.run.Step;
import dev.continuum.flow.validation.InputSchemas;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.UUID;

/** Run use cases: start, read, list, log, cancel, release, resume, and provider pushes. */
@ApplicationScoped
public class RunService {

    /**
     * {@code runManagers} and {@code runMonitors} are the run's own role lists (Globus' run_managers, run_monitors);
     * {@code notifyOn} is Globus' activity_notification_policy.status (null: INACTIVE only).
     */
    public record StartRequest(JsonNode body, String label, List<String> tags, List<String> runManagers,
                               List<String> runMonitors, List<String> notifyOn) {

        public StartRequest(JsonNode body, String label, List<String> tags, List<String> runManagers, List<String> runMonitors) {
            this(body, label, tags, runManagers, runMonitors, null);
        }
    }

    /** PUT /runs/{id}: the fields given replace the run's; null fields stay as they are. */
    public record RunChange(String label, List<String> tags, List<String> runManagers, List<String> runMonitors) {}

    /** Redrive: {@code state} null starts where the run failed; {@code input} null reuses the input it had there. */
    public record Redrive(String state, JsonNode input) {}

    /** The starter's token and any RunAs role tokens; exchanged for provider tokens, never kept in plain. */
    public record Credentials(Optional<String> user, java.util.Map<String, String> roles) {
        public static final Credentials NONE = new Credentials(Optional.empty(), java.util.Map.of());

        public Credentials {
            roles = java.util.Map.copyOf(roles);
        }

        @Override
        public String toString() {
            return "Credentials[***]";
        }
    }

    private final FlowService flows;
    private final FlowInterpreters interpreters;
    private final RunStore runs;
    private final Driver driver;
    private final ProviderTokens tokens;
    private final Clock clock;
    private final RunChanges changes;
    private final int maxStateBytes;

    public RunService(FlowService flows, FlowInterpreters interpreters, RunStore runs, Driver driver,
                      ProviderTokens tokens, Clock clock, EngineConfig config, RunChanges changes) {
        this.tokens = tokens;
        this.changes = changes;
        this.flows = flows;
        this.interpreters = interpreters;
        this.runs = runs;
        this.driver = driver;
        this.clock = clock;
        this.maxStateBytes = config.runs().maxStateBytes();
    }

    /** Starts a run of the flow's current version; answers it with that version (no second read of the flow). */
    public Uni<RunAndFlow> start(UUID flowId, StartRequest request, Viewer viewer, Credentials credentials) {
        return start(flowId, request, viewer, credentials, Optional.empty());
    }

    /** {@code email}: the starter's address, where notices of the run go by e-mail. */
    public Uni<RunAndFlow> start(UUID flowId, StartRequest request, Viewer viewer, Credentials credentials,
                                 Optional<String> email) {
        return start(flowId, null, UUID.randomUUID(), request, viewer, credentials, email);
    }

    /**
     * Starts a run with a chosen id of the flow's current version, or of {@code pinnedVersion}. Triggers choose
     * the id from the event's dedup key: the runs table's primary key then refuses a second run for one event.
     */
    public Uni<RunAndFlow> start(UUID flowId, Integer pinnedVersion, UUID runId, StartRequest request, Viewer viewer,
                                 Credentials credentials) {
        return start(flowId, pinnedVersion, runId, request, viewer, credentials, Optional.empty());
    }

    /**
     * As above, and {@code email} is the starter's address, where notices of the run go by e-mail. A {@code pinnedVersion}
     * the flow does not have is refused naming {@code flow_version}.
     */
    public Uni<RunAndFlow> start(UUID flowId, Integer pinnedVersion, UUID runId, StartRequest request, Viewer viewer,
                                 Credentials credentials, Optional<String> email) {
        // The current version as last seen here saves a read per start; the insert checks it is still current, and
        // should the flow have changed meanwhile, the start is made again from a fresh read.
        return pinnedVersion != null ? start(flowId, pinnedVersion, runId, request, viewer, credentials, email, false)
                : start(flowId, null, runId, request, viewer, credentials, email, true)
                        .onItem().ifNull().switchTo(() -> start(flowId, null, runId, request, viewer, credentials, email, false));
    }

    /** Null when {@code lastSeen} and the flow's current version is no longer the one last seen. */
    private Uni<RunAndFlow> start(UUID flowId, Integer pinnedVersion, UUID runId, StartRequest request, Viewer viewer,
                                  Credentials credentials, Optional<String> email, boolean lastSeen) {
        String userId = viewer.id();
        return (lastSeen ? flows.visibleLastSeen(flowId, viewer) : flows.visible(flowId, viewer)).flatMap(current -> {
            checkStarter(current, viewer);
            return pinnedVersion == null || pinnedVersion == current.version() ? Uni.createFrom().item(current)
                    : flows.version(flowId, pinnedVersion).onFailure(EngineError.class).transform(e -> EngineError.invalidField(
                            "/flow_version", "flow " + flowId + " has no version " + pinnedVersion + "; its latest is "
                                    + current.version() + "."));
        }).flatMap(flow -> {
            JsonNode input = request.body() == null || request.body().isNull()
                    ? JsonNodeFactory.instance.objectNode() : request.body();
            checkStart(flow, input, request);
            List<String> tags = RunMetadata.tags(request.tags());
            Interpreter interpreter = interpreters.forRecord(flow);
            Instant now = clock.instant();
            Step step = interpreter.start(input, new RunContext(runId.toString(), flowId.toString(), flow.version(), userId,
                    request.label(), tags, request.notifyOn(), email.orElse(null)), now);
            Instant wake = DueWork.of(interpreter, step.state()).wakeAt(now);
            // due now: an action to start, or more states than one turn may enter (the rest follow in later turns)
            boolean work = wake != null && !wake.isAfter(now);
            RunRecord run = new RunRecord(runId, flowId, flow.version(), userId, request.label(), tags, step.state(),
                    now, now, step.state().status() == RunStatus.ACTIVE || step.state().status() == RunStatus.INACTIVE ? null : now,
                    RunMetadata.principals(request.runManagers()), RunMetadata.principals(request.runMonitors()));
            // Provider tokens first: a start the identity provider refuses leaves no run behind. A run that
            // finished at start will call nobody, and nothing would ever drop its grants: none are taken.
            List<ProviderTokens.Call> calls = step.state().status().finished() ? List.of() : calls(interpreter, call -> true);
            String leaseOwner = work ? driver.instanceId() : null;
            Instant leaseUntil = work ? driver.leaseUntil() : null;
            return tokens.delegate(runId, credentials.user(), credentials.roles(), calls)
                    .flatMap(delegated -> lastSeen ? runs.insertIfCurrent(run, step.log(), wake, leaseOwner, leaseUntil)
                            : runs.insert(run, step.log(), wake, leaseOwner, leaseUntil).replaceWith(true))
                    .onFailure().call(() -> tokens.forget(runId).onFailure().recoverWithNull())
                    .flatMap(inserted -> {
                        if (!inserted) { // the flow changed since it was last seen here: nothing was written
                            return tokens.forget(runId).onFailure().recoverWithNull().replaceWith((RunAndFlow) null);
                        }
                        changes.committed(RunChanged.of(runId, null, step.state(), now));
                        if (work) {
                            driver.launch(runId, run, leaseUntil);
                        }
                        return Uni.createFrom().item(new RunAndFlow(run, flow));
                    });
        });
    }

    /** The flow, when the viewer may start it: 404 when they may not see it, 403 when they may only see it. */
    public Uni<FlowRecord> startable(UUID flowId, Viewer viewer) {
        return flows.visible(flowId, viewer).invoke(flow -> checkStarter(flow, viewer));
    }

    private static void checkStarter(FlowRecord flow, Viewer viewer) {
        if (viewer.restricted() && !Access.startsFlow(flow, viewer.id())) {
            throw new AccessDenied("You may see flow " + flow.id() + " but not start it: ask an owner to add you to its flow_starters.");
        }
    }

    /** The provider calls the flow can make, as delegation sees them. */
    private static List<ProviderTokens.Call> calls(Interpreter interpreter,
                                                   java.util.function.Predicate<ProviderTokens.Principal> which) {
        return interpreter.flow().actionStates().stream()
                .filter(action -> !FormAction.is(action.actionUrl())) // answered by the engine itself: no token
                .map(action -> new ProviderTokens.Call(action.name(), action.actionUrl(),
                        ProviderTokens.Principal.of(action.runAs().orElse(null))))
                .filter(call -> which.test(call.principal()))
                .toList();
    }

    private void checkStart(FlowRecord flow, JsonNode input, StartRequest request) {
        if (!input.isObject()) {
            throw EngineError.invalidField("/body", "The run input must be a JSON object.");
        }
        OptionalInt tooLarge = JsonSize.over(input, maxStateBytes);
        if (tooLarge.isPresent()) {
            throw new EngineError(EngineError.Kind.TOO_LARGE, "Run input too large",
                    "The run input is " + tooLarge.getAsInt() + " bytes; the limit is " + maxStateBytes
                            + " bytes. Pass large data by reference (a path or URL) instead.",
                    List.of(new FieldIssue("/body", "larger than " + maxStateBytes + " bytes")));
        }
        RunMetadata.check(new RunChange(request.label(), request.tags(), request.runManagers(), request.runMonitors()));
        checkPolicy(request.notifyOn());
        if (flow.inputSchema() != null) {
            List<FieldIssue> issues = InputSchemas.validateInput(flow.inputSchema(), input).stream()
                    .map(i -> new FieldIssue("/body" + stripInputPrefix(i.pointer()), i.message())).toList();
            if (!issues.isEmpty()) {
                throw EngineError.invalid("Run input does not match the flow's input schema",
                        issues.get(0).pointer() + ": " + issues.get(0).message(), issues);
            }
        }
    }

    private static void checkPolicy(List<String> statuses) {
        if (statuses == null) {
            return;
        }
        for (int i = 0; i < statuses.size(); i++) {
            if (!Notifications.STATUSES.contains(statuses.get(i))) {
                throw EngineError.invalidField("/activity_notification_policy/status/" + i, "'" + statuses.get(i)
                        + "' is not a status a run can notify on; use INACTIVE, SUCCEEDED or FAILED.");
            }
        }
    }

    private static String stripInputPrefix(String pointer) {
        if (pointer == null || pointer.isEmpty() || pointer.equals("/input")) {
            return "";
        }
        return pointer.startsWith("/input/") ? pointer.substring("/input".length()) : pointer;
    }

    /** Without any access check: for the driver-facing paths (pushes, signals). */
    Uni<RunRecord> get(UUID runId) {
        return runs.find(runId).map(found -> found.orElseThrow(() -> EngineError.notFound("Run", runId.toString())));
    }

    /** The run if the viewer may see it; otherwise "not found", exactly as if it did not exist. */
    public Uni<RunRecord> get(UUID runId, Viewer viewer) {
        return access(runId, viewer, false);
    }

    /** The run if the viewer may manage it (403 when they may only see it, 404 when not even that). */
    private Uni<RunRecord> managed(UUID runId, Viewer viewer) {
        return access(runId, viewer, true);
    }

    private Uni<RunRecord> access(UUID runId, Viewer viewer, boolean manage) {
        return get(runId).flatMap(run -> {
            if (!viewer.restricted() || viewer.id().equals(run.ownerId())) {
                return Uni.createFrom().item(run);
            }
            return flows.version(run.flowId(), run.flowVersion()).map(flow -> {
                if (!Access.seesRun(run, flow, viewer.id())) {
                    throw EngineError.notFound("Run", runId.toString());
                }
                if (manage && !Access.managesRun(run, flow, viewer.id())) {
                    throw new AccessDenied("You may monitor run " + runId + " but not manage it.");
                }
                return run;
            });
        });
    }

    /** One page of the runs the viewer may see, cut by the store, each with its flow (all of them in one read). */
    public Uni<Slice<RunAndFlow>> list(RunQuery query, Viewer viewer) {
        return runs.list(query, viewer).flatMap(page -> {
            java.util.Set<FlowStore.VersionKey> keys = new java.util.HashSet<>();
            page.items().forEach(run -> keys.add(new FlowStore.VersionKey(run.flowId(), run.flowVersion())));
            return flows.versions(keys).map(byKey -> page.map(run ->
                    new RunAndFlow(run, byKey.get(new FlowStore.VersionKey(run.flowId(), run.flowVersion())))));
        });
    }

    /** The run with the flow version it started from (for its title and roles). */
    public Uni<RunAndFlow> withFlow(RunRecord run) {
        return flows.version(run.flowId(), run.flowVersion()).map(flow -> new RunAndFlow(run, flow));
    }

    /** The definition and input schema the run was started with, if the viewer may see the run. */
    public Uni<FlowRecord> definition(UUID runId, Viewer viewer) {
        return get(runId, viewer).flatMap(run -> flows.version(run.flowId(), run.flowVersion()));
    }

    /** Changes label, tags and the run's own managers and monitors: the run's owner and managers may. */
    public Uni<RunRecord> update(UUID runId, RunChange change, Viewer viewer) {
        return managed(runId, viewer).flatMap(run -> {
            if (change == null) {
                throw EngineError.invalidField("", "A JSON body with label, tags, run_managers or run_monitors is required.");
            }
            RunMetadata.check(change);
            String label = change.label() != null ? change.label() : run.label();
            List<String> tags = change.tags() != null ? RunMetadata.tags(change.tags()) : run.tags();
            List<String> managers = change.runManagers() != null ? RunMetadata.principals(change.runManagers()) : run.runManagers();
            List<String> monitors = change.runMonitors() != null ? RunMetadata.principals(change.runMonitors()) : run.runMonitors();
            return runs.update(runId, label, tags, managers, monitors).flatMap(updated -> get(runId));
        });
    }

    /** Log entries after {@code marker} (oldest first), or before it, newest first, when {@code reverse}. */
    public Uni<List<RunEventRecord>> log(UUID runId, Optional<Integer> marker, boolean reverse, int limit, Viewer viewer) {
        return get(runId, viewer).flatMap(run -> reverse
                ? runs.eventsBefore(runId, marker.orElse(Integer.MAX_VALUE), limit)
                : runs.events(runId, marker.orElse(0), limit));
    }

    public Uni<RunRecord> cancel(UUID runId, String reason, Viewer viewer) {
        return managed(runId, viewer).flatMap(run -> {
            if (finished(run)) {
                throw EngineError.conflict("Run already finished",
                        "Run " + runId + " is " + run.state().status() + "; only ACTIVE or INACTIVE runs can be cancelled.");
            }
            JsonNode note = JsonNodeFactory.instance.objectNode().put("reason", reason);
            return signal(runId, Driver.CANCEL_TOKEN, note);
        });
    }

    /**
     * Resumes an INACTIVE run. With authentication on, the resumer's fresh token is exchanged again for
     * the run's person-held grants first (after a revoked or expired grant, signing in and resuming is
     * the way back); from then on the run's User calls act for the resumer.
     */
    public Uni<RunRecord> resume(UUID runId, Viewer viewer, Optional<String> token) {
        return managed(runId, viewer).flatMap(run -> {
            if (run.state().status() != RunStatus.INACTIVE) {
                throw EngineError.conflict("Run is not inactive",
                        "Run " + runId + " is " + run.state().status() + "; only INACTIVE runs can be resumed.");
            }
            return interpreters.forVersion(run.flowId(), run.flowVersion())
                    .flatMap(interpreter -> tokens.delegate(runId, token, java.util.Map.of(),
                            calls(interpreter, ProviderTokens.Principal::user)))
                    .flatMap(delegated -> signal(runId, Driver.RESUME_TOKEN, JsonNodeFactory.instance.objectNode()));
        });
    }

    /**
     * Starts the next attempt of a FAILED run in a chosen state, optionally with edited input (logged as FlowRedriven).
     * The run's owner and managers may. A finished run's grants are gone: the redriver's token is exchanged again for
     * the person-held ones, as on resume.
     */
    public Uni<RunRecord> redrive(UUID runId, Redrive request, Viewer viewer, Optional<String> token) {
        checkRedriveInput(request.input());
        return managed(runId, viewer).flatMap(run -> {
            if (run.state().status() != RunStatus.FAILED) {
                throw EngineError.conflict("Run has not failed",
                        "Run " + runId + " is " + run.state().status() + "; only FAILED runs can be redriven.");
            }
            return interpreters.forVersion(run.flowId(), run.flowVersion()).flatMap(interpreter -> {
                if (request.state() != null && !interpreter.flow().states().containsKey(request.state())) {
                    throw EngineError.invalidField("/state", "'" + request.state() + "' is not a state of this flow; its states are "
                            + String.join(", ", interpreter.flow().states().keySet()) + ".");
                }
                Instant now = clock.instant();
                Step step;
                try {
                    step = interpreter.redrive(run.state(), request.state(), request.input(), now);
                } catch (IllegalArgumentException e) {
                    throw EngineError.invalidField(e.getMessage().startsWith("no input") ? "/input" : "/state", e.getMessage());
                }
                Instant wake = DueWork.of(interpreter, step.state()).wakeAt(now);
                return tokens.delegate(runId, token, java.util.Map.of(), calls(interpreter, ProviderTokens.Principal::user))
                        .flatMap(delegated -> runs.reopen(runId, run.updatedAt(), step.state(), step.log(), wake, now))
                        .flatMap(reopened -> {
                            if (!reopened) {
                                throw EngineError.conflict("Run changed",
                                        "Run " + runId + " was redriven or changed meanwhile; reload it and try again.");
                            }
                            changes.committed(RunChanged.of(runId, run.state(), step.state(), now));
                            if (wake != null && !wake.isAfter(now)) {
                                driver.nudge(runId);
                            }
                            return get(runId);
                        });
            });
        });
    }

    private void checkRedriveInput(JsonNode input) {
        if (input == null) {
            return;
        }
        if (!input.isObject()) {
            throw EngineError.invalidField("/input", "The input of a redriven state must be a JSON object.");
        }
        OptionalInt tooLarge = JsonSize.over(input, maxStateBytes);
        if (tooLarge.isPresent()) {
            throw EngineError.invalidField("/input", "The input is " + tooLarge.getAsInt() + " bytes; the limit is " + maxStateBytes + " bytes.");
        }
    }

    public Uni<Void> release(UUID runId, Viewer viewer) {
        return managed(runId, viewer).flatMap(run -> {
            if (!finished(run)) {
                throw EngineError.conflict("Run still active",
                        "Run " + runId + " is " + run.state().status() + "; cancel it or let it finish before releasing it.");
            }
            return runs.delete(runId).flatMap(deleted -> tokens.forget(runId));
        });
    }

    /** A provider pushed an action's final status. Unknown or finished runs are told so. */
    public Uni<Void> push(UUID runId, String encodedToken, JsonNode status) {
        String token = CallbackUrls.decode(encodedToken);
        if (token.startsWith("__")) {
            throw EngineError.invalidField("/token", "This token is reserved.");
        }
        if (status == null || !status.isObject() || !status.hasNonNull("status")) {
            throw EngineError.invalidField("/status", "A pushed completion must be an action status object with a 'status' field.");
        }
        // Not queued: a finished run already learned the outcome by polling (the late push is harmless),
        // and an unknown run is told so by get.
        return driver.queue(runId, token, status)
                .flatMap(accepted -> accepted ? Uni.createFrom().voidItem() : get(runId).replaceWithVoid());
    }

    /** Queues a cancel/resume (or a form's answer) for whichever instance drives the run, then gives it a moment to land. */
    Uni<RunRecord> signal(UUID runId, String token, JsonNode payload) {
        return runs.push(runId, token, payload, clock.instant())
                .invoke(() -> driver.nudge(runId))
                .flatMap(ignored -> awaitChange(runId, 20));
    }

    private Uni<RunRecord> awaitChange(UUID runId, int triesLeft) {
        return Uni.createFrom().voidItem().onItem().delayIt().by(Duration.ofMillis(50))
                .flatMap(v -> runs.inbox(runId))
                .flatMap(inbox -> inbox.isEmpty() || triesLeft <= 0 ? get(runId) : awaitChange(runId, triesLeft - 1));
    }

    private static boolean finished(RunRecord run) {
        RunStatus status = run.state().status();
        return status == RunStatus.SUCCEEDED || status == RunStatus.FAILED || status == RunStatus.ENDED;
    }
}
