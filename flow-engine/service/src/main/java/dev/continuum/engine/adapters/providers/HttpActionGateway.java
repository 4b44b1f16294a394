package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.app.ActionGateway;
import dev.continuum.engine.app.FormActions;
import dev.continuum.flow.model.FormAction;
import dev.continuum.engine.app.ProviderTokens;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.domain.ActionUrlMap;
import dev.continuum.engine.domain.CallingRun;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.provider.api.ActionRequest;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.client.CallContext;
import dev.continuum.provider.client.ClientOptions;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Calls providers over the Action Provider API, retrying transport failures (request_id keeps that
 * safe); the engine's own built-in providers are called in process, with the same tokens and answers. A
 * human-input form ({@link FormAction#URL}) is answered here without any call: see {@link FormActions}; a flow of this
 * engine is run in process as a child run: see {@link InProcessFlows}.
 */
@ApplicationScoped
public class HttpActionGateway implements ActionGateway {

    private static final ObjectMapper JSON = ProviderJson.mapper();
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);
    private static final Duration MAX_BACKOFF = Duration.ofSeconds(3);

    private final ActionProviderClient client;
    private final BuiltinProvidersRoutes builtins;
    private final ProviderTokens tokens;
    private final ActionUrlMap urlMap;
    private final int attempts;
    private final Timer latency;
    private final ActionSpans spans;
    private final InProcessFlows flows;

    public HttpActionGateway(Vertx vertx, EngineConfig config, ActionUrlMap urlMap, MeterRegistry metrics, ProviderTokens tokens,
                             BuiltinProvidersRoutes builtins, ActionSpans spans, InProcessFlows flows) {
        this.tokens = tokens;
        this.flows = flows;
        this.spans = spans;
        this.builtins = builtins;
        this.client = new ActionProviderClient(vertx,
                ClientOptions.defaults().withReadTimeout(config.runs().providerReadTimeout()));
        this.urlMap = urlMap;
        this.attempts = config.runs().transportAttempts();
        this.latency = Timer.builder("continuum.action.call").description("Latency of calls to action providers")
                .publishPercentiles(0.5, 0.99).register(metrics);
    }

    @Override
    public Uni<ActionObservation> start(UUID runId, Effect.StartAction action, FinishReport report, Fence fence) {
        if (FormAction.is(action.actionUrl())) {
            return Uni.createFrom().item(FormActions.started(action.requestId(), action.body()));
        }
        Optional<UUID> flow = flowAt(action.actionUrl());
        if (flow.isPresent()) {
            return fence.holds().flatMap(held -> held ? flows.start(runId, flow.get(), action)
                    : Uni.createFrom().failure(new LeaseLost(runId)));
        }
        ActionRequest request = new ActionRequest(action.requestId(), action.body(), action.label(), action.tags(),
                List.of(), List.of(), null, null);
        return send(runId, "run", action.actionUrl(), action.runAs(), Optional.ofNullable(report.callbackUrl()), fence,
                (local, bearer) -> local.run(bearer, request, status -> report.listener().accept(JSON.valueToTree(status))),
                (url, context) -> client.run(url, request, context.withTraceHeaders(
                        new CallingRun(runId, action.stateName()).addTo(context.traceHeaders()))),
                HttpActionGateway::observation);
    }

    @Override
    public boolean inProcess(String actionUrl) {
        return !FormAction.is(actionUrl) && builtins.at(urlMap.resolve(actionUrl)).isPresent();
    }

    @Override
    public Uni<ActionObservation> poll(UUID runId, Effect.PollAction poll) {
        if (FormAction.is(poll.actionUrl())) {
            return Uni.createFrom().item(FormActions.stillWaiting(poll.actionId()));
        }
        if (flowAt(poll.actionUrl()).isPresent()) {
            return flows.status(runId, poll.actionUrl(), poll.runAs(), poll.actionId());
        }
        return send(runId, "status", poll.actionUrl(), poll.runAs(), Optional.empty(), Fence.NONE,
                (local, bearer) -> local.status(bearer, poll.actionId()),
                (url, context) -> client.status(url, poll.actionId(), context), HttpActionGateway::observation);
    }

    @Override
    public Uni<Void> cancel(UUID runId, Effect.CancelAction cancel) {
        if (FormAction.is(cancel.actionUrl())) {
            return Uni.createFrom().voidItem();
        }
        if (flowAt(cancel.actionUrl()).isPresent()) {
            return flows.cancel(runId, cancel.actionUrl(), cancel.runAs(), cancel.actionId()).replaceWithVoid();
        }
        return send(runId, "cancel", cancel.actionUrl(), cancel.runAs(), Optional.empty(), Fence.NONE,
                (local, bearer) -> local.cancel(bearer, cancel.actionId()),
                (url, context) -> client.cancel(url, cancel.actionId(), context), status -> null);
    }

    @Override
    public Uni<Void> release(UUID runId, Effect.ReleaseAction release) {
        // A child run outlives its parent's action (see FlowActions#release): nothing to release in process.
        if (FormAction.is(release.actionUrl()) || flowAt(release.actionUrl()).isPresent()) {
            return Uni.createFrom().voidItem();
        }
        return send(runId, "release", release.actionUrl(), release.runAs(), Optional.empty(), Fence.NONE,
                (local, bearer) -> local.release(bearer, release.actionId()),
                (url, context) -> client.release(url, release.actionId(), context), status -> null);
    }

    /** The flow of this engine that {@code actionUrl} names, called in process rather than over HTTP. */
    private Optional<UUID> flowAt(String actionUrl) {
        return flows.flowAt(urlMap.resolve(actionUrl));
    }

    /**
     * One call, with the run's token for the provider: in process when the URL is one of the engine's
     * own built-ins, over HTTP otherwise; in its run's trace, one span per call (retries included).
     */
    private <T> Uni<T> send(UUID runId, String operation, String actionUrl, String runAs, Optional<String> callbackUrl,
                            Fence fence, BiFunction<LocalProvider, Optional<String>, CompletionStage<ActionStatus>> inProcess,
                            BiFunction<String, CallContext, CompletionStage<ActionStatus>> overHttp,
                            Function<ActionStatus, T> answer) {
        String url = urlMap.resolve(actionUrl);
        Optional<LocalProvider> local = builtins.at(url);
        if (local.isPresent() && !spans.recording()) {
            return inProcess(runId, actionUrl, runAs, fence, bearer -> inProcess.apply(local.get(), bearer), answer);
        }
        return Uni.createFrom().deferred(() -> {
            ActionSpans.Call span = spans.start(runId, operation, actionUrl);
            return context(runId, actionUrl, runAs, callbackUrl).map(c -> c.withTraceHeaders(span.headers()))
                    .flatMap(context -> call(runId, local.isPresent()
                            ? () -> inProcess.apply(local.get(), context.bearerToken())
                            : () -> overHttp.apply(url, context), actionUrl, fence))
                    .onTermination().invoke((status, failure, cancelled) -> span.end(failure));
        }).map(answer);
    }

    /**
     * A call to a built-in in this process with tracing off: the same token, fence, retries, answers, errors and
     * latency metric as any call, without what only a call over HTTP or a recorded span needs (trace headers, a span,
     * a callback URL), and built as one {@link CompletionStage} rather than a chain of Mutiny operators (each of which
     * Quarkus wraps for context propagation). A provider that never blocks has answered by the time this is subscribed.
     */
    private <T> Uni<T> inProcess(UUID runId, String actionUrl, String runAs, Fence fence,
                                 Function<Optional<String>, CompletionStage<ActionStatus>> call, Function<ActionStatus, T> answer) {
        if (tokens.tokenless()) {
            return fenced(runId, actionUrl, fence, () -> call.apply(Optional.empty()), answer);
        }
        return tokens.bearer(runId, actionUrl, runAs).flatMap(bearer -> fenced(runId, actionUrl, fence, () -> call.apply(bearer), answer));
    }

    private <T> Uni<T> fenced(UUID runId, String actionUrl, Fence fence, Supplier<CompletionStage<ActionStatus>> request,
                              Function<ActionStatus, T> answer) {
        if (fence == Fence.NONE) {
            return Uni.createFrom().completionStage(() -> firstInProcess(runId, actionUrl, fence, request, answer));
        }
        return fence.holds().flatMap(held -> held
                ? Uni.createFrom().completionStage(firstInProcess(runId, actionUrl, fence, request, answer))
                : Uni.createFrom().failure(new LeaseLost(runId)));
    }

    /** The first attempt, its fence already asked; a retryable failure goes on as {@link #call}'s retries do. */
    private <T> CompletionStage<T> firstInProcess(UUID runId, String actionUrl, Fence fence,
                                                  Supplier<CompletionStage<ActionStatus>> request, Function<ActionStatus, T> answer) {
        Timer.Sample sample = Timer.start();
        CompletionStage<ActionStatus> sent;
        try {
            sent = request.get();
        } catch (RuntimeException e) {
            sent = CompletableFuture.failedStage(e);
        }
        return sent.whenComplete((status, failure) -> sample.stop(latency)).exceptionallyCompose(wrapped -> {
            Throwable failure = wrapped instanceof CompletionException && wrapped.getCause() != null ? wrapped.getCause() : wrapped;
            if (attempts > 1 && retryable(failure)) {
                return retries(attempt(runId, request, fence)).onFailure(f -> !(f instanceof LeaseLost))
                        .transform(f -> unableToRun(actionUrl, f)).subscribeAsCompletionStage();
            }
            return CompletableFuture.failedStage(unableToRun(actionUrl, failure));
        }).thenApply(answer);
    }

    /** The run's token for this provider (none with authentication off) and the push callback, if any. */
    private Uni<CallContext> context(UUID runId, String actionUrl, String runAs, Optional<String> callbackUrl) {
        return tokens.bearer(runId, actionUrl, runAs).map(bearer -> new CallContext(bearer, callbackUrl));
    }

    /**
     * Sends the request, retrying transport failures; the fence is asked before every attempt, as close to the
     * send as it can be, because a retry seconds later may come after the run was taken over (and its action
     * finished and released by the new holder).
     */
    private Uni<ActionStatus> call(UUID runId, Supplier<CompletionStage<ActionStatus>> request, String actionUrl, Fence fence) {
        Uni<ActionStatus> attempt = attempt(runId, request, fence);
        // Mutiny's retry is a Multi pipeline (several operators and context captures on every call, four calls per run);
        // built only once the first attempt failed retryably, with the same back-off and number of attempts.
        return attempt.onFailure(failure -> attempts > 1 && retryable(failure)).recoverWithUni(() -> retries(attempt))
                .onFailure(failure -> !(failure instanceof LeaseLost)).transform(failure -> unableToRun(actionUrl, failure));
    }

    /** One attempt: the fence asked, then the request sent and timed. */
    private Uni<ActionStatus> attempt(UUID runId, Supplier<CompletionStage<ActionStatus>> request, Fence fence) {
        return Uni.createFrom().deferred(() -> fence.holds().flatMap(held -> {
            if (!held) {
                return Uni.createFrom().<ActionStatus>failure(new LeaseLost(runId));
            }
            Timer.Sample sample = Timer.start();
            return Uni.createFrom().completionStage(request).eventually(() -> sample.stop(latency));
        }));
    }

    /** The attempts after a first one failed retryably: after the first back-off, up to the configured number in all. */
    private Uni<ActionStatus> retries(Uni<ActionStatus> attempt) {
        return Uni.createFrom().voidItem().onItem().delayIt().by(FIRST_BACKOFF).flatMap(v -> attempts > 2
                ? attempt.onFailure(HttpActionGateway::retryable).retry().withBackOff(FIRST_BACKOFF, MAX_BACKOFF).atMost(attempts - 2)
                : attempt);
    }

    private static boolean retryable(Throwable failure) {
        return failure instanceof ActionProviderException e && e.retryable();
    }

    private static Throwable unableToRun(String actionUrl, Throwable failure) {
        if (failure instanceof ActionProviderException e) {
            String reason = e.problem().map(p -> p.detail() != null ? p.detail() : p.title()).orElse(e.getMessage());
            String status = e.httpStatus() == 0 ? "could not be reached" : "answered HTTP " + e.httpStatus();
            return new ActionCallException("ActionUnableToRun",
                    "The action provider at " + actionUrl + " " + status + ": " + reason);
        }
        return new ActionCallException("ActionUnableToRun",
                "Calling the action provider at " + actionUrl + " failed: " + failure.getMessage());
    }

    private static ActionObservation observation(ActionStatus status) {
        return new ActionObservation(status.actionId(), status.status().name(), status.details(), status.displayStatus());
    }
}
