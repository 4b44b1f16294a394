package dev.continuum.engine.adapters.providers;

import dev.continuum.auth.oidc.JwtClaims;
import dev.continuum.engine.app.AccessDenied;
import dev.continuum.engine.app.ActionGateway.ActionCallException;
import dev.continuum.engine.app.FlowActions;
import dev.continuum.engine.app.FlowCallRefused;
import dev.continuum.engine.app.ProviderTokens;
import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.ProviderAudiences;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.engine.app.EventLoop;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Provider;

import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Calls to a flow of this engine ({@code {engine}/flows/{flow_id}/actions}) made without HTTP: the child run is
 * started, watched and cancelled through {@link FlowActions} as the Action state's identity (the parent run's owner,
 * or whoever its {@code RunAs} names), exactly as the HTTP endpoints would for that identity's token, and linked to
 * its parent run and state. Refusals become the action errors a parent's
 * Catch names: {@code FlowStartDenied}, {@code FlowDepthExceeded}, {@code FlowCycleRefused}, else {@code ActionUnableToRun}.
 */
@ApplicationScoped
public class InProcessFlows {

    public static final String START_DENIED = "FlowStartDenied";

    private final SelfUrl self;
    private final RunStore runs;
    private final ProviderTokens tokens;
    private final EventLoop loop;
    /** Lazily: the flows' runs are driven by the driver that calls this gateway. */
    private final Provider<FlowActions> flows;

    public InProcessFlows(SelfUrl self, RunStore runs, ProviderTokens tokens, EventLoop loop, Provider<FlowActions> flows) {
        this.loop = loop;
        this.self = self;
        this.runs = runs;
        this.tokens = tokens;
        this.flows = flows;
    }

    /** The flow whose Action Provider URL {@code resolvedUrl} is, when it is one of this engine's. */
    public Optional<UUID> flowAt(String resolvedUrl) {
        return ProviderAudiences.under(resolvedUrl, self.base() + "/flows").flatMap(rest -> {
            String path = rest.endsWith("/") ? rest.substring(0, rest.length() - 1) : rest;
            int slash = path.indexOf('/');
            if (slash < 0 || !path.substring(slash).equals("/actions")) {
                return Optional.empty();
            }
            try {
                return Optional.of(UUID.fromString(path.substring(0, slash)));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        });
    }

    Uni<ActionObservation> start(UUID parentRunId, UUID flowId, Effect.StartAction action) {
        RunService.StartRequest request = new RunService.StartRequest(action.body(), action.label(), action.tags(),
                java.util.List.of(), java.util.List.of());
        return asOwner(parentRunId, action.actionUrl(), action.runAs(), (viewer, credentials) -> flows.get().run(flowId,
                action.requestId(), request, viewer, credentials,
                Optional.of(new FlowActions.Parent(parentRunId, action.stateName(), action.token()))));
    }

    Uni<ActionObservation> status(UUID parentRunId, String actionUrl, String runAs, String actionId) {
        return asOwner(parentRunId, actionUrl, runAs, (viewer, credentials) -> flows.get().status(actionId(actionId), viewer));
    }

    Uni<ActionObservation> cancel(UUID parentRunId, String actionUrl, String runAs, String actionId) {
        return asOwner(parentRunId, actionUrl, runAs, (viewer, credentials) -> flows.get().cancel(actionId(actionId), viewer));
    }

    private interface Call {
        Uni<ActionObservation> as(Viewer viewer, RunService.Credentials credentials);
    }

    /**
     * With authentication off everything belongs to the one local user; on, the call carries the Action's token for
     * this engine, and the child runs as the identity that token was issued to (see {@link #callerOf}).
     */
    private Uni<ActionObservation> asOwner(UUID parentRunId, String actionUrl, String runAs, Call call) {
        return isolated(() -> runs.find(parentRunId).flatMap(parent -> {
            String owner = parent.orElseThrow(() -> EngineError.notFound("Run", parentRunId.toString())).ownerId();
            if (tokens.tokenless()) {
                return call.as(Viewer.unrestricted(owner), RunService.Credentials.NONE);
            }
            return tokens.bearer(parentRunId, actionUrl, runAs)
                    .flatMap(bearer -> call.as(Viewer.of(callerOf(owner, runAs, bearer)), new RunService.Credentials(bearer, Map.of())));
        })).onFailure().transform(failure -> actionError(actionUrl, failure));
    }

    /**
     * The call on a Vert.x context of its own, its answer handed back on the caller's: a parent's turn may start
     * several children at once (a Map, Parallel branches), and the flow store's Hibernate Reactive session belongs to
     * a context, which two queries at once must not share ("Illegal pop()"; the turn failed and waited for its lease).
     */
    private Uni<ActionObservation> isolated(java.util.function.Supplier<Uni<ActionObservation>> call) {
        return Uni.createFrom().emitter(emitter -> {
            Context caller = Vertx.currentContext();
            loop.execute(() -> call.get().subscribe().with(
                    answer -> onContext(caller, () -> emitter.complete(answer)),
                    failure -> onContext(caller, () -> emitter.fail(failure))));
        });
    }

    private static void onContext(Context context, Runnable work) {
        if (context == null) {
            work.run();
        } else {
            context.runOnContext(ignored -> work.run());
        }
    }

    /**
     * The owner for {@code RunAs: User}; for a role or the flow's service account, the user the delegated token names,
     * so the child is started (and refused) as that identity, as it would be over HTTP. The token came to
     * {@link ProviderTokens} straight from the identity provider, which is why its claims may be read unverified.
     */
    private static String callerOf(String owner, String runAs, Optional<String> bearer) {
        if (ProviderTokens.Principal.of(runAs).user() || bearer.isEmpty()) {
            return owner;
        }
        JwtClaims claims = JwtClaims.readUnverified(bearer.get());
        return claims.username().orElseGet(claims::subject);
    }

    private static UUID actionId(String actionId) {
        try {
            return UUID.fromString(actionId);
        } catch (IllegalArgumentException e) {
            throw EngineError.notFound("Action", actionId);
        }
    }

    private static Throwable actionError(String actionUrl, Throwable failure) {
        return switch (failure) {
            case AccessDenied denied -> new ActionCallException(START_DENIED, denied.getMessage());
            case FlowCallRefused refused -> new ActionCallException(refused.error(), refused.getMessage());
            case EngineError error -> new ActionCallException("ActionUnableToRun",
                    "The flow at " + actionUrl + " refused the call: " + error.getMessage());
            default -> failure;
        };
    }
}
