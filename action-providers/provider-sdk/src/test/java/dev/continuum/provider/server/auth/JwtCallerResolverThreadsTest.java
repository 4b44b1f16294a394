package dev.continuum.provider.server.auth;

import static dev.continuum.provider.testing.ScriptedProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.EventLoopCall;
import dev.continuum.provider.testing.ThreadRecordingProvider;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * With authentication on, a provider that never blocks is still called on the caller's thread when its token can be
 * checked without fetching keys; a check that has to fetch the issuer's keys is made on a worker, never an event loop.
 */
class JwtCallerResolverThreadsTest {

    private static final String AUDIENCE = "continuum-provider-transfer";

    private final Vertx vertx = Vertx.vertx();
    private final AtomicInteger fetches = new AtomicInteger();
    private final AtomicBoolean fetchedOnEventLoop = new AtomicBoolean();

    @AfterEach
    void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private JsonNode jwks() {
        fetches.incrementAndGet();
        if (Context.isOnEventLoopThread()) {
            fetchedOnEventLoop.set(true);
        }
        var keys = JwtVerifierTest.JSON.createArrayNode();
        RSAPublicKey pub = (RSAPublicKey) JwtVerifierTest.KEYS.getPublic();
        keys.add(JwtVerifierTest.JSON.createObjectNode().put("kid", "k1").put("kty", "RSA").put("use", "sig")
                .put("n", JwtVerifierTest.unsigned(pub.getModulus())).put("e", JwtVerifierTest.unsigned(pub.getPublicExponent())));
        return JwtVerifierTest.JSON.createObjectNode().set("keys", keys);
    }

    private LocalProvider mount(ThreadRecordingProvider provider) {
        // keys fetched with the first token, as the engine's built-ins fetch them (JwtCallerResolver.keycloakLazily)
        JwtVerifier verifier = new JwtVerifier(JwtVerifierTest.ISSUER, AUDIENCE, Optional.empty(), this::jwks,
                Clock.fixed(JwtVerifierTest.NOW, ZoneOffset.UTC), Duration.ofSeconds(30));
        return ActionProviderServer.mount(Router.router(vertx), "/providers/threads", provider,
                ProviderServerOptions.of(vertx).withCallerResolver(new JwtCallerResolver(verifier)));
    }

    private static ActionRequest request(String requestId) {
        return ActionRequest.of(requestId, json("{\"message\":\"m\"}"));
    }

    @Test
    void shouldFetchUnknownKeysOnAWorkerThenCheckKnownOnesOnTheCallingThread() throws Exception {
        ThreadRecordingProvider provider = new ThreadRecordingProvider(true);
        LocalProvider local = mount(provider);
        String token = JwtVerifierTest.token(JwtVerifierTest.claims());

        EventLoopCall first = EventLoopCall.of(vertx, () -> local.run(Optional.of(token), request("r1"), s -> { }));
        assertThat(first.await().creatorId()).isEqualTo("scientist");
        assertThat(fetches.get()).as("the first token fetched the keys").isEqualTo(1);
        assertThat(fetchedOnEventLoop).as("a key fetch never runs on an event loop").isFalse();
        assertThat(provider.startedOnEventLoop).isFalse();

        EventLoopCall second = EventLoopCall.of(vertx, () -> local.run(Optional.of(token), request("r2"), s -> { }));
        assertThat(second.answeredOnReturn()).as("a known key: checked and answered on the calling thread").isTrue();
        assertThat(provider.startedOn).isSameAs(second.caller());
        assertThat(second.await().creatorId()).isEqualTo("scientist");
        assertThat(fetches.get()).isEqualTo(1);
    }

    @Test
    void shouldRefuseAWrongTokenOnTheCallingThreadAsTheRouteWould() throws Exception {
        ThreadRecordingProvider provider = new ThreadRecordingProvider(true);
        LocalProvider local = mount(provider);
        EventLoopCall.of(vertx, () -> local.run(Optional.of(JwtVerifierTest.token(JwtVerifierTest.claims())), request("r0"), s -> { }))
                .await(); // the first token fetched the keys
        ObjectNode otherAudience = JwtVerifierTest.claims();
        otherAudience.putArray("aud").add("continuum-provider-builtin");
        String forgedWithKnownKid = JwtVerifierTest.token(JwtVerifierTest.claims(), JwtVerifierTest.OTHER_KEYS);

        EventLoopCall replayed = EventLoopCall.of(vertx, () -> local.run(Optional.of(JwtVerifierTest.token(otherAudience)), request("r3"), s -> { }));
        EventLoopCall forged = EventLoopCall.of(vertx, () -> local.run(Optional.of(forgedWithKnownKid), request("r4"), s -> { }));
        EventLoopCall none = EventLoopCall.of(vertx, () -> local.run(Optional.empty(), request("r5"), s -> { }));

        for (EventLoopCall refused : new EventLoopCall[] {replayed, forged, none}) {
            assertThat(refused.answeredOnReturn()).isTrue();
            assertThatThrownBy(refused::await).cause().isInstanceOfSatisfying(ActionProviderException.class,
                    e -> assertThat(e.httpStatus()).isEqualTo(401));
        }
        assertThat(provider.starts.get()).as("only the first, valid call started an action").isEqualTo(1);
        assertThat(fetches.get()).as("a known key id needs no other fetch").isEqualTo(1);
    }
}
