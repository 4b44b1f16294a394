package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.builtin.EchoProvider;
import dev.continuum.provider.builtin.SleepProvider;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.server.auth.JwtVerifier;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

/**
 * The floor of the bench flow's in-process built-in calls (issue 17 A): per run, echo's run, sleep 0's run and the two
 * releases, through {@link LocalProvider} exactly as the engine's gateway calls it (tokens off), one call after the
 * other. With {@code --worker} the providers say they may block, so each call hops to a Vert.x worker as every call
 * did before they could say they never block. Prints the process's CPU per run (the worker's share included); the
 * gateway's own work (engine classes) is not in it. Asserts only that every action succeeded.
 */
@Command(name = "builtin-call-floor", mixinStandardHelpOptions = true,
        description = "Call echo and sleep 0 in process N times (run + release each) and print process CPU per run.")
public final class BuiltinCallFloor implements Callable<Integer> {

    @Option(names = "--runs", defaultValue = "100000", description = "Measured runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", defaultValue = "100000", description = "Unmeasured runs first, for the JIT (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--worker", description = "The providers say they may block: every call hops to a worker thread.")
    boolean worker;

    @Option(names = "--auth", description = "Authentication on: each run's calls carry that run's RS256 token (5,000 "
            + "distinct ones in turn, more than the verifier keeps), checked by JwtCallerResolver with its key already "
            + "fetched, as the engine's built-ins are called with authentication on.")
    boolean auth;

    private static final int TOKENS = 5000;

    /** The same provider, saying it may block. */
    private record MayBlock(ActionProvider provider) implements ActionProvider {
        @Override
        public ProviderDescription describe() {
            return provider.describe();
        }

        @Override
        public ActionStatus start(ActionRequest request, ActionContext ctx) {
            return provider.start(request, ctx);
        }
    }

    @Override
    public Integer call() {
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            // released actions kept as the engine keeps its built-ins' (two leases), not the SDK's ten minutes
            ProviderServerOptions options = ProviderServerOptions.of(vertx).withReleasedRetention(Duration.ofSeconds(10));
            List<Optional<String>> tokens = List.of(Optional.empty());
            if (auth) {
                SignedTokens issuer = new SignedTokens();
                options = options.withCallerResolver(issuer.resolver());
                tokens = IntStream.range(0, TOKENS).mapToObj(i -> Optional.of(issuer.token(i))).toList();
            }
            ActionProvider echoProvider = new EchoProvider(Optional.empty());
            ActionProvider sleepProvider = new SleepProvider();
            LocalProvider echo = ActionProviderServer.mount(router, "/providers/echo", worker ? new MayBlock(echoProvider) : echoProvider, options);
            LocalProvider sleep = ActionProviderServer.mount(router, "/providers/sleep", worker ? new MayBlock(sleepProvider) : sleepProvider, options);
            for (int i = 0; i < warmup; i++) {
                runOnce(echo, sleep, tokens.get(i % tokens.size()), i);
            }
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuBefore = os.getProcessCpuTime();
            long wallBefore = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                runOnce(echo, sleep, tokens.get((warmup + i) % tokens.size()), warmup + i);
            }
            long wall = System.nanoTime() - wallBefore;
            long cpu = os.getProcessCpuTime() - cpuBefore;
            System.out.printf("builtin call floor  %d runs after %d warm-up, calls %s, tokens %s%n", runs, warmup,
                    worker ? "hop to a worker (providers may block)" : "on the calling thread (providers never block)",
                    auth ? "RS256, verified per call" : "none (authentication off)");
            System.out.printf("process cpu per run %.1f us   (%.1f us per call, 4 calls per run: 2 runs, 2 releases)%n",
                    cpu / 1e3 / runs, cpu / 1e3 / runs / 4);
            System.out.printf("wall                %.2f s, %.0f runs/s on one calling thread%n", wall / 1e9, runs / (wall / 1e9));
            return 0;
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** Echo then sleep 0, each started and released as the engine does for the bench flow. */
    private static void runOnce(LocalProvider echo, LocalProvider sleep, Optional<String> token, int n) {
        String run = UUID.randomUUID().toString();
        ActionStatus echoed = echo.run(token, ActionRequest.of(run + "-echo",
                JsonNodeFactory.instance.objectNode().put("message", "run " + n)), status -> { }).toCompletableFuture().join();
        ActionStatus slept = sleep.run(token, ActionRequest.of(run + "-sleep",
                JsonNodeFactory.instance.objectNode().put("seconds", 0)), status -> { }).toCompletableFuture().join();
        if (echoed.status() != ActionState.SUCCEEDED || slept.status() != ActionState.SUCCEEDED) {
            throw new IllegalStateException("run " + n + ": echo " + echoed.status() + ", sleep " + slept.status());
        }
        echo.release(token, echoed.actionId()).toCompletableFuture().join();
        sleep.release(token, slept.actionId()).toCompletableFuture().join();
    }

    /** An issuer of one RSA key: a token for the built-ins, and the resolver that checks it (the key already fetched). */
    private static final class SignedTokens {
        private static final String ISSUER = "http://127.0.0.1:8180/realms/continuum";
        private static final String AUDIENCE = "continuum-provider-builtin";
        private final KeyPair keys;

        SignedTokens() {
            try {
                KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
                generator.initialize(2048);
                keys = generator.generateKeyPair();
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        CallerResolver resolver() {
            RSAPublicKey pub = (RSAPublicKey) keys.getPublic();
            var json = JsonNodeFactory.instance;
            var jwk = json.objectNode().put("kid", "k1").put("kty", "RSA").put("use", "sig")
                    .put("n", base64(pub.getModulus())).put("e", base64(pub.getPublicExponent()));
            var jwks = json.objectNode().set("keys", json.arrayNode().add(jwk));
            JwtVerifier verifier = new JwtVerifier(ISSUER, AUDIENCE, Optional.of("actions:builtin"), () -> jwks,
                    Clock.systemUTC(), Duration.ofSeconds(30));
            verifier.refreshKeys();
            return new JwtCallerResolver(verifier);
        }

        /** Token {@code n}: the same claims but its id, so each one is a token the verifier has not seen. */
        String token(int n) {
            long now = Instant.now().getEpochSecond();
            String claims = "{\"iss\":\"" + ISSUER + "\",\"aud\":\"" + AUDIENCE + "\",\"sub\":\"engine\","
                    + "\"jti\":\"t-" + n + "\",\"preferred_username\":\"engine\",\"scope\":\"actions:builtin\",\"iat\":" + now + ",\"exp\":" + (now + 3600) + "}";
            String signingInput = text("{\"alg\":\"RS256\",\"kid\":\"k1\"}") + "." + text(claims);
            try {
                Signature rsa = Signature.getInstance("SHA256withRSA");
                rsa.initSign(keys.getPrivate());
                rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
                return signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
        }

        private static String text(String json) {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
        }

        private static String base64(BigInteger value) {
            byte[] bytes = value.toByteArray();
            int from = bytes[0] == 0 ? 1 : 0; // unsigned, as JWK wants it
            return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOfRange(bytes, from, bytes.length));
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BuiltinCallFloor()).execute(args));
    }
}
