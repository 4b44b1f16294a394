package dev.continuum.engine.adapters.providers;

import dev.continuum.engine.app.ActionGateway;
import dev.continuum.engine.config.EngineConfig;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.domain.ActionUrlMap;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
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
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/** Calls providers over the Action Provider API, retrying transport failures (request_id keeps that safe). */
@ApplicationScoped
public class HttpActionGateway implements ActionGateway {

    private final ActionProviderClient client;
    private final ActionUrlMap urlMap;
    private final int attempts;
    private final Timer latency;

    public HttpActionGateway(Vertx vertx, EngineConfig config, SelfUrl selfUrl, MeterRegistry metrics) {
        this.client = new ActionProviderClient(vertx, ClientOptions.defaults());
        this.urlMap = ActionUrlMap.parse(config.providers().urlMap().orElse(List.of()), selfUrl::providersBase);
        this.attempts = config.runs().transportAttempts();
        this.latency = Timer.builder("continuum.action.call").description("Latency of calls to action providers")
                .publishPercentiles(0.5, 0.99).register(metrics);
    }

    @Override
    public Uni<ActionObservation> start(Effect.StartAction action, String callbackUrl) {
        ActionRequest request = new ActionRequest(action.requestId(), action.body(), action.label(), action.tags(),
                List.of(), List.of(), null, null);
        CallContext context = new CallContext(Optional.empty(), Optional.ofNullable(callbackUrl));
        return call(() -> client.run(urlMap.resolve(action.actionUrl()), request, context), action.actionUrl())
                .map(HttpActionGateway::observation);
    }

    @Override
    public Uni<ActionObservation> poll(Effect.PollAction poll) {
        return call(() -> client.status(urlMap.resolve(poll.actionUrl()), poll.actionId(), CallContext.anonymous()),
                poll.actionUrl()).map(HttpActionGateway::observation);
    }

    @Override
    public Uni<Void> cancel(Effect.CancelAction cancel) {
        return call(() -> client.cancel(urlMap.resolve(cancel.actionUrl()), cancel.actionId(), CallContext.anonymous()),
                cancel.actionUrl()).replaceWithVoid();
    }

    @Override
    public Uni<Void> release(Effect.ReleaseAction release) {
        return call(() -> client.release(urlMap.resolve(release.actionUrl()), release.actionId(), CallContext.anonymous()),
                release.actionUrl()).replaceWithVoid();
    }

    private Uni<ActionStatus> call(Supplier<CompletionStage<ActionStatus>> request, String actionUrl) {
        return Uni.createFrom().deferred(() -> {
                    Timer.Sample sample = Timer.start();
                    return Uni.createFrom().completionStage(request).eventually(() -> sample.stop(latency));
                })
                .onFailure(HttpActionGateway::retryable).retry()
                .withBackOff(Duration.ofMillis(200), Duration.ofSeconds(3)).atMost(attempts - 1)
                .onFailure().transform(failure -> unableToRun(actionUrl, failure));
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
