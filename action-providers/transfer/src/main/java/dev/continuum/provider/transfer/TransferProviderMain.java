package dev.continuum.provider.transfer;

import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.engine.Blake3;
import dev.continuum.provider.transfer.engine.ChecksumAlgorithm;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.provider.TransferProviders;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Serves the transfer providers on their own:
 * {@code java -jar continuum-transfer-provider-<ver>-runner.jar --endpoints endpoints.json --state /var/lib/continuum-transfer --port 8093}.
 * Unfinished transfers found in the state directory are resumed at start.
 */
public final class TransferProviderMain {

    private static final String USAGE = """
            usage: continuum-transfer-provider --endpoints FILE [--state DIR] [--port 8093] [--host 127.0.0.1]
                   [--base-path /providers/transfer] [--parallelism 4] [--chunk-mib 8] [--max-mib-per-second N]
              serves transfer, ls, mkdir and delete at http://HOST:PORT/BASE/<name>
            """;

    private TransferProviderMain() {}

    record Settings(int port, String host, String basePath, Path endpoints, Path state, int parallelism, int chunkMib,
                    int maxMibPerSecond) {}

    public static void main(String[] args) {
        Settings settings;
        try {
            settings = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(USAGE);
            System.exit(2);
            return;
        }
        if (settings == null) {
            System.out.print(USAGE);
            return;
        }
        TransferOptions options = TransferOptions.defaults().withParallelism(settings.parallelism())
                .withChunkBytes(settings.chunkMib() * 1024 * 1024)
                .withMaxBytesPerSecond(settings.maxMibPerSecond() * 1024L * 1024);
        EndpointRegistry endpoints;
        try {
            endpoints = EndpointConfig.load(settings.endpoints(), options.chunkBytes());
        } catch (RuntimeException e) {
            System.err.println("cannot load endpoints: " + e.getMessage());
            System.exit(2);
            return;
        }
        Vertx vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        router.get("/health").handler(rc -> rc.response().putHeader("Content-Type", "application/json")
                .end("{\"status\":\"UP\"}"));
        // CONTINUUM_AUTH_ENABLED=true: only tokens for continuum-provider-transfer with scope actions:transfer (docs/auth.md).
        TransferProviders.mountAll(router, settings.basePath(), vertx, endpoints, options, settings.state(),
                JwtCallerResolver.fromEnvironment(System.getenv(), "continuum-provider-transfer", "actions:transfer"));
        try {
            HttpServer server = vertx.createHttpServer().requestHandler(router)
                    .listen(settings.port(), settings.host())
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            System.out.println("continuum transfer providers listening on http://" + settings.host() + ":"
                    + server.actualPort() + settings.basePath() + "/{transfer,ls,mkdir,delete}; default checksum "
                    + ChecksumAlgorithm.defaultForThisJvm().label() + " (BLAKE3 " + Blake3.implementation() + ")");
            Thread.ofPlatform().daemon().name("blake3-warm-up").start(Blake3::warmUp);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> vertx.close()
                    .toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS).join()));
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            System.err.println("cannot listen on " + settings.host() + ":" + settings.port() + ": " + cause.getMessage());
            vertx.close();
            System.exit(1);
        }
    }

    /** Returns null when help was asked for. */
    static Settings parse(String[] args) {
        int port = 8093;
        String host = "127.0.0.1";
        String basePath = "/providers/transfer";
        Path endpoints = null;
        Path state = Path.of("continuum-transfer-state");
        int parallelism = 4;
        int chunkMib = 8;
        int maxMibPerSecond = 0;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
            if (name.equals("--help") || name.equals("-h")) {
                return null;
            }
            String value;
            if (arg.contains("=")) {
                value = arg.substring(arg.indexOf('=') + 1);
            } else if (i + 1 < args.length) {
                value = args[++i];
            } else {
                throw new IllegalArgumentException("missing value for " + name);
            }
            switch (name) {
                case "--port" -> port = number(name, value, 0, 65535);
                case "--host" -> host = value;
                case "--base-path" -> basePath = value.equals("/") ? "" : value.replaceAll("/+$", "");
                case "--endpoints" -> endpoints = Path.of(value);
                case "--state" -> state = Path.of(value);
                case "--parallelism" -> parallelism = number(name, value, 1, 256);
                case "--chunk-mib" -> chunkMib = number(name, value, 5, 1024);
                case "--max-mib-per-second" -> maxMibPerSecond = number(name, value, 0, 1_000_000);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (endpoints == null) {
            throw new IllegalArgumentException("--endpoints FILE is required");
        }
        return new Settings(port, host, basePath, endpoints, state, parallelism, chunkMib, maxMibPerSecond);
    }

    private static int number(String name, String value, int min, int max) {
        try {
            int n = Integer.parseInt(value);
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException(name + " must be a number from " + min + " to " + max + ", not " + value);
    }
}
