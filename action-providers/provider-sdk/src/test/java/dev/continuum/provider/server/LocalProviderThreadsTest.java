package dev.continuum.provider.server;

import static dev.continuum.provider.testing.ScriptedProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.testing.EventLoopCall;
import dev.continuum.provider.testing.ThreadRecordingProvider;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Where an in-process call runs: a provider that never blocks on the caller's thread, any other on a worker. */
class LocalProviderThreadsTest {

    private Vertx vertx;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
    }

    @AfterEach
    void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private EventLoopCall fromEventLoop(Supplier<CompletionStage<ActionStatus>> call) throws Exception {
        return EventLoopCall.of(vertx, call);
    }

    private LocalProvider mount(ActionProvider provider, ProviderServerOptions options) {
        return ActionProviderServer.mount(Router.router(vertx), "/providers/threads", provider, options);
    }

    @Test
    void shouldAnswerANeverBlockingProviderOnTheCallingThreadWithoutAHop() throws Exception {
        ThreadRecordingProvider provider = new ThreadRecordingProvider(true);
        LocalProvider local = mount(provider, ProviderServerOptions.of(vertx));

        EventLoopCall called = fromEventLoop(() -> local.run(Optional.empty(), ActionRequest.of("r1", json("{\"message\":\"hi\"}")), s -> { }));

        assertThat(called.answeredOnReturn()).as("answered by the time run returns").isTrue();
        assertThat(provider.startedOn).isSameAs(called.caller());
        ActionStatus status = called.answer().toCompletableFuture().join();
        assertThat(status.status()).isEqualTo(ActionState.SUCCEEDED);
        assertThat(status.details().path("message").asText()).isEqualTo("hi");
    }

    @Test
    void shouldRunAProviderThatMayBlockOnAWorkerEvenWhenCalledFromAnEventLoop() throws Exception {
        ThreadRecordingProvider provider = new ThreadRecordingProvider(false);
        LocalProvider local = mount(provider, ProviderServerOptions.of(vertx));

        EventLoopCall called = fromEventLoop(() -> local.run(Optional.empty(), ActionRequest.of("r2", json("{\"message\":\"hi\"}")), s -> { }));

        assertThat(called.answer().toCompletableFuture().get(10, TimeUnit.SECONDS).status()).isEqualTo(ActionState.SUCCEEDED);
        assertThat(provider.startedOnEventLoop).as("a provider that may block never runs on the event loop").isFalse();
        assertThat(provider.startedOn).isNotSameAs(called.caller());
    }

    @Test
    void shouldAnswerTheSameRefusalsOnTheCallingThreadAsOnAWorker() throws Exception {
        ThreadRecordingProvider provider = new ThreadRecordingProvider(true);
        LocalProvider local = mount(provider, ProviderServerOptions.of(vertx));

        EventLoopCall called = fromEventLoop(() -> local.run(Optional.empty(), ActionRequest.of("r3", json("{\"mode\":\"now\"}")), s -> { }));

        assertThat(called.answeredOnReturn()).isTrue();
        assertThatThrownBy(() -> called.answer().toCompletableFuture().join()).cause()
                .isInstanceOfSatisfying(ActionProviderException.class, e -> {
                    assertThat(e.httpStatus()).isEqualTo(400);
                    assertThat(e.retryable()).isFalse();
                });
        EventLoopCall again = fromEventLoop(() -> local.run(Optional.empty(), ActionRequest.of("r4", json("{\"message\":\"a\"}")), s -> { }));
        EventLoopCall reused = fromEventLoop(() -> local.run(Optional.empty(), ActionRequest.of("r4", json("{\"message\":\"b\"}")), s -> { }));
        assertThat(again.answer().toCompletableFuture().join().status()).isEqualTo(ActionState.SUCCEEDED);
        assertThatThrownBy(() -> reused.answer().toCompletableFuture().join()).cause()
                .isInstanceOfSatisfying(ActionProviderException.class, e -> assertThat(e.httpStatus()).isEqualTo(409));
        assertThat(provider.starts.get()).as("one start: the bad body and the reused request_id start nothing").isEqualTo(1);
    }

    @Test
    void shouldCheckTokensOffTheEventLoopAndRefuseAWrongOneWhenTheResolverMayBlock() throws Exception {
        ThreadRecordingProvider provider = new ThreadRecordingProvider(true);
        AtomicInteger checkedOnEventLoop = new AtomicInteger();
        CallerResolver tokens = new CallerResolver() { // like the JWT resolver: its key fetch may block
            @Override
            public Caller resolve(io.vertx.ext.web.RoutingContext rc) {
                return resolveAuthorization(rc.request().getHeader("Authorization"));
            }

            @Override
            public Caller resolveAuthorization(String authorization) {
                if (Context.isOnEventLoopThread()) {
                    checkedOnEventLoop.incrementAndGet();
                }
                if (!"Bearer good".equals(authorization)) {
                    throw new CallerRejectedException(401, "token not accepted");
                }
                return Caller.of("engine");
            }
        };
        LocalProvider local = mount(provider, ProviderServerOptions.of(vertx).withCallerResolver(tokens));

        EventLoopCall wrong = fromEventLoop(() -> local.run(Optional.of("bad"), ActionRequest.of("r5", json("{\"message\":\"m\"}")), s -> { }));
        EventLoopCall good = fromEventLoop(() -> local.run(Optional.of("good"), ActionRequest.of("r6", json("{\"message\":\"m\"}")), s -> { }));

        assertThatThrownBy(() -> wrong.answer().toCompletableFuture().get(10, TimeUnit.SECONDS)).cause()
                .isInstanceOfSatisfying(ActionProviderException.class, e -> assertThat(e.httpStatus()).isEqualTo(401));
        assertThat(good.answer().toCompletableFuture().get(10, TimeUnit.SECONDS).creatorId()).isEqualTo("engine");
        assertThat(checkedOnEventLoop.get()).isZero();
        assertThat(provider.starts.get()).isEqualTo(1);
    }
}
