package dev.continuum.provider.server;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.Problem;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.internal.ActionEngine;
import dev.continuum.provider.internal.ProblemException;
import dev.continuum.provider.internal.Problems;
import io.vertx.core.Vertx;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A provider mounted in this process, callable without HTTP: the same actions, checks and answers
 * as its routes (input validated against its schema, problems as {@link ActionProviderException}
 * with the status the route would have answered), minus the request encoding, the loopback
 * connection and the completion callback's round trip. An engine serving built-in providers uses
 * it to call them; anyone else still reaches them over HTTP.
 */
public final class LocalProvider implements AutoCloseable {

    private final ActionEngine engine;
    private final Vertx vertx;
    private final CallerResolver callers;
    private final String name;
    /** Neither the provider nor its store blocks: a call whose caller check cannot block either runs on the calling thread. */
    private final boolean neverBlocks;

    LocalProvider(ActionEngine engine, ProviderServerOptions options, String name) {
        this.engine = engine;
        this.vertx = options.vertx();
        this.callers = options.callerResolver();
        this.name = name;
        this.neverBlocks = engine.neverBlocks();
    }

    /**
     * Starts an action, or answers the earlier one for a repeated {@code request_id}. A finish that
     * comes after this answer is handed to {@code onFinish} (once); one inside it is only in the answer.
     * {@code bearer} is the token the call would carry over HTTP; the provider checks it the same way.
     */
    public CompletionStage<ActionStatus> run(Optional<String> bearer, ActionRequest request, Consumer<ActionStatus> onFinish) {
        return blocking(bearer, caller -> engine.runValidated(caller, request, null, onFinish).status());
    }

    public CompletionStage<ActionStatus> status(Optional<String> bearer, String actionId) {
        return blocking(bearer, caller -> engine.status(caller, actionId));
    }

    public CompletionStage<ActionStatus> cancel(Optional<String> bearer, String actionId) {
        return blocking(bearer, caller -> engine.cancel(caller, actionId));
    }

    public CompletionStage<ActionStatus> release(Optional<String> bearer, String actionId) {
        return blocking(bearer, caller -> engine.release(caller, actionId));
    }

    /**
     * Stops the provider: its background work ends ({@link ActionProvider#stop}, the framework's timers, lease renewal
     * and release sweep) and from now on no action's stored state changes through it; its routes answer 503. The
     * actions stay stored as they are, for a restarted provider (or another instance of a shared store) to resume.
     * The HTTP server and Vert.x are the caller's to close.
     */
    @Override
    public void close() {
        engine.close();
    }

    /**
     * The provider's life-cycle code may block (files, expressions, key fetches), as behind its routes: it runs on a
     * worker. One that never blocks ({@link ActionProvider#neverBlocks}, an in-memory store), called with a token its
     * caller check can verify without fetching keys (or none, authentication off), is called on this thread: the
     * answer is complete when this returns, and the worker hop cost more than the call itself.
     */
    private CompletionStage<ActionStatus> blocking(Optional<String> bearer, Function<Caller, ActionStatus> work) {
        String authorization = bearer.map(token -> "Bearer " + token).orElse(null);
        if (neverBlocks && callers.neverBlocks(authorization)) {
            try {
                return CompletableFuture.completedFuture(answer(authorization, work));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return vertx.executeBlocking(() -> answer(authorization, work), false).toCompletionStage();
    }

    /** One call as the route makes it: the caller checked, the work done, a refusal as the route's status. */
    private ActionStatus answer(String authorization, Function<Caller, ActionStatus> work) {
        try {
            return work.apply(callers.resolveAuthorization(authorization));
        } catch (ProblemException e) {
            Problem problem = e.problem();
            throw new ActionProviderException("Action provider " + name + " answered " + problem.status() + ": "
                    + e.getMessage(), problem.status(), problem.status() == 503, problem, null);
        } catch (CallerRejectedException e) {
            throw new ActionProviderException("Action provider " + name + " refused the caller (" + e.httpStatus()
                    + "): " + e.getMessage(), e.httpStatus(), e.httpStatus() == 503, Problems.rejected(e), null);
        }
    }
}
