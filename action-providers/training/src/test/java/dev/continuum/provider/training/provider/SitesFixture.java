package dev.continuum.provider.training.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.ClientOptions;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.core.TrainingScheduler;
import dev.continuum.provider.training.core.TrainingSite;
import dev.continuum.provider.training.demo.DemoTrainerTest;
import dev.continuum.provider.client.TransferCarrier;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.provider.TransferProviders;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import org.awaitility.Awaitility;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A training provider running jobs at several sites, each a backend with its own directory below {@code dir}
 * ({@code dir/<site>}, work files in {@code dir/work-<site>}), and the real transfer provider serving those
 * directories as endpoints named like the sites — both in this JVM over HTTP. With Keycloak the transfer provider
 * checks tokens and the carrier signs as {@code continuum-checkpoint-carrier}; without, both run without sign-in
 * (benchmarks). Sites whose name is in {@code readOnly} let the carrier read but not write. Operators are named by
 * test headers ({@code X-Test-Caller}, {@code X-Test-Roles}).
 */
final class SitesFixture implements AutoCloseable {
    static final String CARRIER = "service-account-continuum-checkpoint-carrier";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    final Path dir;
    final Vertx vertx = Vertx.vertx();
    final List<TrainingSite> sites = new ArrayList<>();
    final TrainingProvider training;
    final String url;

    SitesFixture(Path dir, Map<String, TrainingBackend> backends, Set<String> readOnly, Optional<KeycloakServer> keycloak)
            throws Exception {
        this(dir, backends, readOnly, keycloak, "priority", MovePolicy.Costs.DEFAULT);
    }

    /** As above, the scheduler under {@code policy} (with {@code +move}: moving jobs at {@code moveCosts}). */
    SitesFixture(Path dir, Map<String, TrainingBackend> backends, Set<String> readOnly, Optional<KeycloakServer> keycloak,
                 String policy, MovePolicy.Costs moveCosts) throws Exception {
        this.dir = dir;
        ObjectNode endpoints = JSON.createObjectNode();
        ArrayNode list = endpoints.putArray("endpoints");
        for (String site : backends.keySet()) {
            Path root = Files.createDirectories(dir.resolve(site));
            ObjectNode e = list.addObject().put("id", site).put("type", "directory").put("root", root.toString());
            if (readOnly.contains(site)) {
                e.put("owner", "someone-else").putArray("readers").add(CARRIER);
            } else {
                e.put("owner", keycloak.isPresent() ? CARRIER : Caller.ANONYMOUS.id());
            }
            sites.add(new TrainingSite(site, backends.get(site), backends.get(site).inventory(), root, Optional.of(site),
                    dir.resolve("work-" + site)));
        }
        Router transfer = Router.router(vertx);
        TransferProviders.mountAll(transfer, "/providers/transfer", vertx,
                EndpointConfig.parse(endpoints, dir, TransferOptions.MIN_CHUNK), TransferOptions.defaults(),
                dir.resolve("transfer-state"), keycloak.<CallerResolver>map(k -> JwtCallerResolver.keycloak(k.issuer(),
                        "continuum-provider-transfer", Optional.of("actions:transfer"))).orElse(CallerResolver.anonymous()));
        String transferUrl = "http://127.0.0.1:" + listen(transfer) + "/providers/transfer/transfer";
        Optional<ServiceAccountToken> token = keycloak.map(k -> new ServiceAccountToken(new TokenClient(k.issuer()),
                ClientCredentials.confidential("continuum-checkpoint-carrier", "continuum-checkpoint-carrier-local-secret"),
                "actions:transfer", Clock.systemUTC()));
        TransferCarrier carrier = new TransferCarrier(new ActionProviderClient(vertx, ClientOptions.defaults()), transferUrl,
                () -> token.map(ServiceAccountToken::current).orElse(null), Duration.ofSeconds(30));
        CallerResolver callers = rc -> {
            String who = rc.request().getHeader("X-Test-Caller");
            String roles = rc.request().getHeader("X-Test-Roles");
            return who == null ? Caller.ANONYMOUS : Caller.of(who, roles == null ? Set.of() : Set.of(roles.split(",")));
        };
        Router router = Router.router(vertx);
        training = new TrainingProvider(l -> new TrainingScheduler(sites, carrier, policy, moveCosts, Clock.systemUTC(), l),
                new AllowedRoots(List.of(sites.getFirst().root())), Duration.ofSeconds(10), Duration.ofMillis(100));
        new OperatorRoutes(training, callers, "continuum-admin").mount(router, "/providers/training");
        ActionProviderServer.mount(router, "/providers/training", training, ProviderServerOptions.of(vertx)
                .withCallerResolver(callers).withStore(new FileActionStore(dir.resolve("actions"))));
        url = "http://127.0.0.1:" + listen(router) + "/providers/training";
    }

    static Map<String, TrainingBackend> sites(Object... nameThenBackend) {
        Map<String, TrainingBackend> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenBackend.length; i += 2) {
            m.put((String) nameThenBackend[i], (TrainingBackend) nameThenBackend[i + 1]);
        }
        return m;
    }

    /** The demo trainer for {@code steps} steps of 20 ms, checkpointing only when asked (so a move loses nothing). */
    static ObjectNode demo(int steps) {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode cmd = body.putArray("command");
        DemoTrainerTest.command("--steps", Integer.toString(steps), "--step-millis", "20", "--checkpoint-every", "100000")
                .forEach(cmd::add);
        return body.put("gpus_max", 1).put("time_limit_seconds", 600);
    }

    String start(ObjectNode body) throws Exception {
        ObjectNode req = JSON.createObjectNode().put("request_id", UUID.randomUUID().toString());
        req.set("body", body);
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(url + "/run"))
                .header("Content-Type", "application/json").header("X-Test-Caller", "alice")
                .POST(HttpRequest.BodyPublishers.ofString(req.toString())).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isIn(200, 201, 202);
        return JSON.readTree(r.body()).path("action_id").asText();
    }

    HttpResponse<String> post(String id, String op, JsonNode body, String caller, String roles) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url + "/" + id + "/" + op))
                .header("Content-Type", "application/json").header("X-Test-Caller", caller)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
        if (roles != null) {
            b.header("X-Test-Roles", roles);
        }
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> migrate(String id, String site) throws Exception {
        return post(id, "migrate", JSON.createObjectNode().put("site", site), "ops", "continuum-admin");
    }

    JsonNode await(String id, Duration limit, Predicate<JsonNode> done) throws Exception {
        return Awaitility.await("action " + id + " to hold the awaited condition").atMost(limit).pollInterval(Duration.ofMillis(50))
                .until(() -> JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url + "/" + id + "/status"))
                        .header("X-Test-Caller", "alice").build(), HttpResponse.BodyHandlers.ofString()).body()), done);
    }

    /** The progress lines attempt {@code attempt} printed at {@code site} (local: attempt-N.log; Slurm: its .out). */
    List<Progress> progress(String site, String id, int attempt) throws Exception {
        Path jobDir = dir.resolve("work-" + site).resolve(id);
        Path local = jobDir.resolve("attempt-" + attempt + ".log");
        Path log = Files.exists(local) ? local : jobDir.resolve("slurm-" + id + "-a" + attempt + ".out");
        return Files.readString(log).lines().map(Progress::parse).flatMap(Optional::stream).toList();
    }

    static String sha256(Path file) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    }

    private int listen(Router router) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return server.actualPort();
    }

    @Override
    public void close() throws Exception {
        training.close();
        sites.forEach(s -> s.backend().close());
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
