package dev.continuum.engine.adapters.providers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.app.ActionGateway;
import dev.continuum.engine.app.ProviderTokens;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.domain.ActionUrlMap;
import dev.continuum.engine.support.EngineSettings;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Calls to a built-in in this process, with tracing on (a span per call) and off (the short path): the same answers,
 * errors, fence, tokens and latency metric either way.
 */
class InProcessGatewayTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String URL = "http://engine.test/providers/counted";

    private final Vertx vertx = Vertx.vertx();
    private final CountedProvider provider = new CountedProvider();
    private final SimpleMeterRegistry metrics = new SimpleMeterRegistry();

    @AfterEach
    void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /** Succeeds at once with its body; counts its starts; never blocks. Its body must name a message. */
    private static final class CountedProvider implements ActionProvider {
        final AtomicInteger starts = new AtomicInteger();

        @Override
        public ProviderDescription describe() {
            return ProviderDescription.builder("Counted").subtitle("test provider").scope("urn:test:counted")
                    .inputSchema(json("{\"type\": \"object\", \"required\": [\"message\"]}")).build();
        }

        @Override
        public ActionStatus start(ActionRequest request, ActionContext ctx) {
            starts.incrementAndGet();
            return ctx.succeeded(request.body());
        }

        @Override
        public boolean neverBlocks() {
            return true;
        }
    }

    /** The run's token for every provider: {@code token}, or none. */
    private record FixedTokens(Optional<String> token) implements ProviderTokens {
        @Override
        public Uni<Void> delegate(UUID runId, Optional<String> userToken, Map<String, String> roleTokens, Collection<Call> calls) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Optional<String>> bearer(UUID runId, String actionUrl, String runAs) {
            return Uni.createFrom().item(token);
        }

        @Override
        public boolean tokenless() {
            return token.isEmpty();
        }

        @Override
        public Uni<Void> forget(UUID runId) {
            return Uni.createFrom().voidItem();
        }
    }

    private HttpActionGateway gateway(boolean tracing, ProviderTokens tokens, CallerResolver callers) {
        LocalProvider local = ActionProviderServer.mount(Router.router(vertx), "/providers/counted", provider,
                ProviderServerOptions.of(vertx).withCallerResolver(callers));
        EngineSettings settings = new EngineSettings("in-process-test");
        BuiltinProvidersRoutes builtins = new BuiltinProvidersRoutes(new SelfUrl(settings), "jdbc:postgresql://unused/none",
                "none", Optional.empty()) {
            @Override
            public Optional<LocalProvider> at(String providerUrl) {
                return providerUrl.equals(URL) ? Optional.of(local) : Optional.empty();
            }
        };
        return new HttpActionGateway(vertx, settings, ActionUrlMap.parse(List.of(), () -> "http://engine.test/providers"),
                metrics, tokens, builtins, new ActionSpans(OpenTelemetry.noop(), !tracing, true),
                new InProcessFlows(new SelfUrl(settings), null, tokens, Runnable::run, () -> null)); // no flows here
    }

    private HttpActionGateway gateway(boolean tracing) {
        return gateway(tracing, new FixedTokens(Optional.empty()), CallerResolver.anonymous());
    }

    private static Effect.StartAction start(String requestId, String body) {
        return new Effect.StartAction("t-1", "Counted", URL, requestId, json(body), null, List.of(), null, null);
    }

    private static Uni<ActionObservation> call(HttpActionGateway gateway, Effect.StartAction start, ActionGateway.Fence fence) {
        return gateway.start(UUID.randomUUID(), start, new ActionGateway.FinishReport(null, status -> { }), fence);
    }

    @ParameterizedTest(name = "tracing {0}")
    @ValueSource(booleans = {false, true})
    void shouldAnswerAStartOnceForARepeatedRequestIdAndCountItsLatency(boolean tracing) {
        HttpActionGateway gateway = gateway(tracing);

        ActionObservation first = call(gateway, start("r-1", "{\"message\":\"hi\"}"), ActionGateway.Fence.NONE).await().atMost(WAIT);
        ActionObservation again = call(gateway, start("r-1", "{\"message\":\"hi\"}"), () -> Uni.createFrom().item(true))
                .await().atMost(WAIT);

        assertThat(first.status()).isEqualTo("SUCCEEDED");
        assertThat(first.details().path("message").asText()).isEqualTo("hi");
        assertThat(again.actionId()).as("the same action for the same request_id").isEqualTo(first.actionId());
        assertThat(provider.starts.get()).isEqualTo(1);
        assertThat(metrics.get("continuum.action.call").timer().count()).isEqualTo(2);
    }

    @ParameterizedTest(name = "tracing {0}")
    @ValueSource(booleans = {false, true})
    void shouldNotCallABuiltinOnceTheRunsLeaseIsLost(boolean tracing) {
        HttpActionGateway gateway = gateway(tracing);

        assertThatThrownBy(() -> call(gateway, start("r-2", "{\"message\":\"hi\"}"), () -> Uni.createFrom().item(false))
                .await().atMost(WAIT)).isInstanceOf(ActionGateway.LeaseLost.class);
        assertThat(provider.starts.get()).isZero();
    }

    @ParameterizedTest(name = "tracing {0}")
    @ValueSource(booleans = {false, true})
    void shouldFailABodyTheBuiltinRefusesAsActionUnableToRunNamingIt(boolean tracing) {
        HttpActionGateway gateway = gateway(tracing);

        assertThatThrownBy(() -> call(gateway, start("r-3", "{\"other\":1}"), ActionGateway.Fence.NONE).await().atMost(WAIT))
                .isInstanceOfSatisfying(ActionGateway.ActionCallException.class, e -> {
                    assertThat(e.error()).isEqualTo("ActionUnableToRun");
                    assertThat(e.getMessage()).contains(URL).contains("answered HTTP 400");
                });
        assertThat(provider.starts.get()).isZero();
    }

    @ParameterizedTest(name = "tracing {0}")
    @ValueSource(booleans = {false, true})
    void shouldReleaseAFinishedBuiltinSoItsActionIsGone(boolean tracing) {
        HttpActionGateway gateway = gateway(tracing);
        ActionObservation done = call(gateway, start("r-4", "{\"message\":\"hi\"}"), ActionGateway.Fence.NONE).await().atMost(WAIT);

        gateway.release(UUID.randomUUID(), new Effect.ReleaseAction(URL, done.actionId(), null)).await().atMost(WAIT);

        assertThatThrownBy(() -> gateway.poll(UUID.randomUUID(), new Effect.PollAction("t-1", URL, done.actionId(), null, null))
                .await().atMost(WAIT)).isInstanceOfSatisfying(ActionGateway.ActionCallException.class,
                        e -> assertThat(e.getMessage()).contains("answered HTTP 404"));
    }

    @ParameterizedTest(name = "tracing {0}")
    @ValueSource(booleans = {false, true})
    void shouldCarryTheRunsTokenAndRefuseAWrongOneAsTheRouteWould(boolean tracing) {
        CallerResolver checksTokens = new CallerResolver() {
            @Override
            public Caller resolve(io.vertx.ext.web.RoutingContext rc) {
                return resolveAuthorization(rc.request().getHeader("Authorization"));
            }

            @Override
            public Caller resolveAuthorization(String authorization) {
                if (!"Bearer good".equals(authorization)) {
                    throw new CallerRejectedException(401, "token not accepted");
                }
                return Caller.of("engine");
            }
        };
        HttpActionGateway good = gateway(tracing, new FixedTokens(Optional.of("good")), checksTokens);
        HttpActionGateway wrong = gateway(tracing, new FixedTokens(Optional.of("stolen")), checksTokens);

        assertThat(call(good, start("r-5", "{\"message\":\"hi\"}"), ActionGateway.Fence.NONE).await().atMost(WAIT).status())
                .isEqualTo("SUCCEEDED");
        assertThatThrownBy(() -> call(wrong, start("r-6", "{\"message\":\"hi\"}"), ActionGateway.Fence.NONE).await().atMost(WAIT))
                .isInstanceOfSatisfying(ActionGateway.ActionCallException.class,
                        e -> assertThat(e.getMessage()).contains("answered HTTP 401"));
        assertThat(provider.starts.get()).isEqualTo(1);
    }

    private static JsonNode json(String text) {
        try {
            return ProviderJson.mapper().readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
