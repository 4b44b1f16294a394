package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.app.ActionGateway;
import dev.continuum.engine.app.FormActions;
import dev.continuum.flow.model.FormAction;
import dev.continuum.engine.app.ProviderTokens;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.domain.ActionUrlMap;
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
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.function.Supplier;

/**
 * Calls providers over the Action Provider API, retrying transport failures (request_id keeps that
 * safe); the engine's own built-in providers are called in process, with the same tokens and answers. A
 * human-input form ({@link FormAction#URL}) is answered here without any call: see {@link FormActions}.
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

    public HttpActionGateway(Vertx vertx, EngineConfig config, ActionUrlMap urlMap, MeterRegistry metrics, ProviderTokens tokens,
                             BuiltinProvidersRoutes builtins, ActionSpans spans) {
        this.tokens = tokens;
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
        ActionRequest request = new ActionRequest(action.requestId(), action.body(), action.label(), action.tags(),
                List.of(), List.of(), null, null);
        return send(runId, "run", action.actionUrl(), action.runAs(), Optional.ofNullable(report.callbackUrl()), fence,
                (local, bearer) -> local.run(bearer, request, status -> report.listener().accept(JSON.valueToTree(status))),
                (url, context) -> client.run(url, request, context))
                .map(HttpActionGateway::observation);
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
        return send(runId, "status", poll.actionUrl(), poll.runAs(), Optional.empty(), Fence.NONE,
                (local, bearer) -> local.status(bearer, poll.actionId()),
                (url, context) -> client.status(url, poll.actionId(), context))
                .map(HttpActionGateway::observation);
    }

    @Override
    public Uni<Void> cancel(UUID runId, Effect.CancelAction cancel) {
        if (FormAction.is(cancel.actionUrl())) {
            return Uni.createFrom().voidItem();
        }
        return send(runId, "cancel", cancel.actionUrl(), cancel.runAs(), Optional.empty(), Fence.NONE,
                (local, bearer) -> local.cancel(bearer, cancel.actionId()),
                (url, context) -> client.cancel(url, cancel.actionId(), context))
                .replaceWithVoid();
    }

    @Override
    public Uni<Void> release(UUID runId, Effect.ReleaseAction release) {
        if (FormAction.is(release.actionUrl())) {
            return Uni.createFrom().voidItem();
        }
        return send(runId, "release", release.actionUrl(), release.runAs(), Optional.empty(), Fence.NONE,
                (local, bearer) -> local.release(bearer, release.actionId()),
                (url, context) -> client.release(url, release.actionId(), context))
                .replaceWithVoid();
    }

    /**
     * One call, with the run's token for the provider: in process when the URL is one of the engine's
     * own built-ins, over HTTP otherwise; in its run's trace, one span per call (retries included).
     */
    private Uni<ActionStatus> send(UUID runId, String operation, String actionUrl, String runAs, Optional<String> callbackUrl,
                                   Fence fence, BiFunction<LocalProvider, Optional<String>, CompletionStage<ActionStatus>> inProcess,
                                   BiFunction<String, CallContext, CompletionStage<ActionStatus>> overHttp) {
        String url = urlMap.resolve(actionUrl);
        Optional<LocalProvider> local = builtins.at(url);
        return Uni.createFrom().deferred(() -> {
            ActionSpans.Call span = spans.start(runId, operation, actionUrl);
            return context(runId, actionUrl, runAs, callbackUrl).map(c -> c.withTraceHeaders(span.headers()))
                    .flatMap(context -> call(runId, local.isPresent()
                            ? () -> inProcess.apply(local.get(), context.bearerToken())
                            : () -> overHttp.apply(url, context), actionUrl, fence))
                    .onTermination().invoke((status, failure, cancelled) -> span.end(failure));
        });
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
        Uni<ActionStatus> attempt = Uni.createFrom().deferred(() -> fence.holds().flatMap(held -> {
            if (!held) {
                return Uni.createFrom().<ActionStatus>failure(new LeaseLost(runId));
            }
            Timer.Sample sample = Timer.start();
            return Uni.createFrom().completionStage(request).eventually(() -> sample.stop(latency));
        }));
        // Mutiny's retry is a Multi pipeline (several operators and context captures on every call, four calls per run);
        // built only once the first attempt failed retryably, with the same back-off and number of attempts.
        return attempt.onFailure(failure -> attempts > 1 && retryable(failure))
                .recoverWithUni(() -> Uni.createFrom().voidItem().onItem().delayIt().by(FIRST_BACKOFF).flatMap(v -> attempts > 2
                        ? attempt.onFailure(HttpActionGateway::retryable).retry()
                                .withBackOff(FIRST_BACKOFF, MAX_BACKOFF).atMost(attempts - 2)
                        : attempt))
                .onFailure(failure -> !(failure instanceof LeaseLost)).transform(failure -> unableToRun(actionUrl, failure));
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
