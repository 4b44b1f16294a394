package dev.continuum.engine.adapters.providers;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.app.ActionGateway;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.domain.ActionUrlMap;
import dev.continuum.engine.support.EngineSettings;
import dev.continuum.engine.support.NoProviderTokens;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Calls to a provider over HTTP: transport failures are retried with back-off up to the configured attempts, no more. */
class HttpActionGatewayTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private Vertx vertx;
    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private volatile int unavailableFor;
    private HttpActionGateway gateway;
    private String actionUrl;

    @BeforeEach
    void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
            if (requests.incrementAndGet() <= unavailableFor) {
                request.response().setStatusCode(503).end();
                return;
            }
            request.response().setStatusCode(201).putHeader("content-type", "application/json")
                    .end("{\"action_id\":\"a-1\",\"status\":\"SUCCEEDED\",\"creator_id\":\"local:scientist\",\"details\":{\"ok\":true}}");
        })).listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        actionUrl = "http://127.0.0.1:" + server.actualPort() + "/actions/flaky";
        EngineSettings settings = new EngineSettings("gateway-test"); // 5 transport attempts
        gateway = new HttpActionGateway(vertx, settings, ActionUrlMap.parse(List.of(), () -> "http://engine.test/providers"),
                new SimpleMeterRegistry(), new NoProviderTokens(), new BuiltinProvidersRoutes(new SelfUrl(settings), "jdbc:postgresql://unused/none", "none", Optional.empty()), // none mounted
                new ActionSpans(OpenTelemetry.noop()),
                new InProcessFlows(new SelfUrl(settings), null, new NoProviderTokens(), Runnable::run, () -> null)); // no flows here
    }

    @AfterEach
    void stop() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void shouldRetryAProviderThatIsBrieflyUnavailableAndTakeItsAnswer() {
        unavailableFor = 2;

        ActionObservation started = start(ActionGateway.Fence.NONE).await().atMost(WAIT);

        assertThat(started.status()).isEqualTo("SUCCEEDED");
        assertThat(started.actionId()).isEqualTo("a-1");
        assertThat(requests.get()).as("two 503s, then the answer").isEqualTo(3);
    }

    @Test
    void shouldGiveUpAfterTheConfiguredAttemptsNamingTheProvider() {
        unavailableFor = Integer.MAX_VALUE;

        assertThatThrownBy(() -> start(ActionGateway.Fence.NONE).await().atMost(WAIT))
                .isInstanceOf(ActionGateway.ActionCallException.class)
                .hasMessageContaining(actionUrl).hasMessageContaining("503");
        assertThat(requests.get()).as("one request per attempt").isEqualTo(5);
    }

    @Test
    void shouldNotCallWhenTheRunsLeaseIsLost() {
        assertThatThrownBy(() -> start(() -> Uni.createFrom().item(false)).await().atMost(WAIT))
                .isInstanceOf(ActionGateway.LeaseLost.class);
        assertThat(requests.get()).isZero();
    }

    @Test
    void shouldAnswerTheFirstAttemptWithoutRetrying() {
        ActionObservation started = start(ActionGateway.Fence.NONE).await().atMost(WAIT);

        assertThat(started.status()).isEqualTo("SUCCEEDED");
        assertThat(requests.get()).isEqualTo(1);
    }

    private Uni<ActionObservation> start(ActionGateway.Fence fence) {
        Effect.StartAction action = new Effect.StartAction("t-1", "Flaky", actionUrl, UUID.randomUUID().toString(),
                JsonNodeFactory.instance.objectNode().put("sample", 1), null, List.of(), null, null);
        return gateway.start(UUID.randomUUID(), action, new ActionGateway.FinishReport(null, status -> { }), fence);
    }
}
