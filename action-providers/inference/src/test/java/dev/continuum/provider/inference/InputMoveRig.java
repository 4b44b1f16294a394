package dev.continuum.provider.inference;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.ClientOptions;
import dev.continuum.provider.client.TransferCarrier;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.provider.TransferProviders;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the input-move tests share: real gateways on the shared test broker (each data directory below {@code state}),
 * the real transfer provider served over HTTP in this JVM with chosen gateways' data directories as its endpoints,
 * and an {@link InputMover} calling it as the provider's main does. Counts the transfers the transfer provider
 * created (answered 202) and found again for a repeated request id (200).
 */
final class InputMoveRig implements AutoCloseable {

    final Vertx vertx = Vertx.vertx();
    final Topics topics = TestBrokers.freshTopics();
    final DeviceCredentials credentials = DeviceCredentials.fromSecret("input move test secret", Clock.systemUTC());
    final Brokers.Broker broker;
    final Path state;
    /** Transfers created by a /run, and /runs that found the transfer of their request id already there. */
    final AtomicInteger transfersCreated = new AtomicInteger();
    final AtomicInteger transfersFound = new AtomicInteger();
    private final List<AutoCloseable> resources = new ArrayList<>();

    InputMoveRig(Path state) throws Exception {
        this.state = state;
        this.broker = TestBrokers.shared();
    }

    /** A gateway with {@code model} deployed as ocr-cls@1 (null: none); {@code link}: its broker connection (null: direct). */
    EdgeGateway gateway(String id, Path model, String role, TcpProxy link) throws Exception {
        Files.createDirectories(dataDir(id));
        // behind a proxy: a keep-alive long enough that a blackholed link is lost only when the test cuts it
        GatewayConfig cfg = GatewayConfig.of(id, link == null ? broker.host() : "127.0.0.1",
                        link == null ? broker.port() : link.port(), state.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics).withHeartbeat(Duration.ofMillis(300), link == null ? 5 : 60).withRole(role)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false));
        EdgeGateway gw = new EdgeGateway(cfg, vertx, Clock.systemUTC());
        resources.add(gw);
        if (model != null) {
            gw.models().deploy("ocr-cls", "1", gw.models().install(model));
        }
        gw.start().get(10, TimeUnit.SECONDS);
        return gw;
    }

    /** A proxy in front of the broker, to cut one gateway off. */
    TcpProxy proxy() throws Exception {
        TcpProxy proxy = new TcpProxy(vertx, broker.host(), broker.port());
        resources.add(proxy);
        return proxy;
    }

    /**
     * Serves the transfer provider with each of {@code endpoints} (endpoint id → gateway id) as a directory endpoint at
     * that gateway's data directory; returns the transfer action's URL.
     */
    String transferProvider(Map<String, String> endpoints, TransferOptions options) throws Exception {
        ObjectNode config = Wire.mapper().createObjectNode();
        ArrayNode list = config.putArray("endpoints");
        endpoints.forEach((endpoint, gateway) -> list.addObject().put("id", endpoint).put("type", "directory")
                .put("root", dataDir(gateway).toString()).put("owner", Caller.ANONYMOUS.id()));
        Router router = Router.router(vertx);
        router.route(HttpMethod.POST, "/providers/transfer/transfer/run").handler(rc -> {
            rc.addHeadersEndHandler(v -> {
                switch (rc.response().getStatusCode()) {
                    case 202 -> transfersCreated.incrementAndGet();
                    case 200 -> transfersFound.incrementAndGet();
                    default -> { }
                }
            });
            rc.next();
        });
        TransferProviders.mountAll(router, "/providers/transfer", vertx,
                EndpointConfig.parse(config, state, TransferOptions.MIN_CHUNK), options,
                state.resolve("transfer-state"), CallerResolver.anonymous());
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        return "http://127.0.0.1:" + server.actualPort() + "/providers/transfer/transfer";
    }

    /** The mover a provider on {@code on} uses: the transfer provider at {@code transferUrl}, polled every 50 ms. */
    static InputMover mover(Vertx on, String transferUrl, Map<String, String> endpointBySite) {
        return new InputMover(new TransferCarrier(new ActionProviderClient(on, ClientOptions.defaults()), transferUrl,
                () -> null, Duration.ofSeconds(30)), endpointBySite, Duration.ofMillis(50), Clock.systemUTC());
    }

    Path dataDir(String gateway) {
        return state.resolve(gateway).resolve("data");
    }

    /** A /run document for ocr-cls on the file {@code inputRef}, said to lie at {@code endpoint} with {@code size} bytes. */
    static ObjectNode run(String requestId, String inputRef, String endpoint, long size) {
        ObjectNode body = Wire.mapper().createObjectNode().put("model", "ocr-cls").put("input_ref", inputRef)
                .put("deadline_seconds", 120);
        body.putObject("input_location").put("endpoint_id", endpoint).put("size_bytes", size);
        ObjectNode doc = Wire.mapper().createObjectNode().put("request_id", requestId);
        doc.set("body", body);
        return doc;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
