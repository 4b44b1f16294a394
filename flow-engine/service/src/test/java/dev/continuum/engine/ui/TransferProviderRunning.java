package dev.continuum.engine.ui;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.provider.TransferProviders;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real transfer provider (action-providers/transfer) served in this JVM on a free port, with its real token
 * check against the test Keycloak (audience continuum-provider-transfer, scope actions:transfer, as the engine asks
 * for a URL under /providers/transfer), two directory endpoints in a temporary directory and a rate cap, so a
 * transfer lasts long enough to be watched.
 */
final class TransferProviderRunning implements AutoCloseable {

    static final int MIB = 1024 * 1024;

    private final Vertx vertx = Vertx.vertx();
    private final HttpServer server;
    final Path root;

    TransferProviderRunning(long maxBytesPerSecond) throws Exception {
        root = Files.createTempDirectory("ui-transfers");
        Files.createDirectories(root.resolve("src"));
        Files.createDirectories(root.resolve("dst"));
        Path endpoints = root.resolve("endpoints.json");
        Files.writeString(endpoints, """
                {"endpoints": [
                  {"id": "src", "type": "directory", "root": "%s", "owner": "scientist", "readers": ["public"], "writers": []},
                  {"id": "dst", "type": "directory", "root": "%s", "owner": "scientist", "readers": ["public"], "writers": ["public"]}]}"""
                .formatted(root.resolve("src"), root.resolve("dst")));
        TransferOptions options = TransferOptions.defaults().withChunkBytes(TransferOptions.MIN_CHUNK)
                .withMaxBytesPerSecond(maxBytesPerSecond).withProgressEvery(Duration.ofMillis(200));
        Router router = Router.router(vertx);
        TransferProviders.mountAll(router, "/providers/transfer", vertx, EndpointConfig.load(endpoints, options.chunkBytes()),
                options, root.resolve("state"), JwtCallerResolver.fromEnvironment(Map.of("CONTINUUM_AUTH_ENABLED", "true",
                        "CONTINUUM_AUTH_ISSUER", KeycloakServer.shared().issuer()), "continuum-provider-transfer", "actions:transfer"));
        server = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
                .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** The ActionUrl of the transfer action. */
    String transferUrl() {
        return "http://127.0.0.1:" + server.actualPort() + "/providers/transfer/transfer";
    }

    /** A source file of this many bytes (sparse: its content does not matter, its length does). */
    void sourceFile(String name, long size) throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(root.resolve("src").resolve(name).toFile(), "rw")) {
            file.setLength(size);
        }
    }

    @Override
    public void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
