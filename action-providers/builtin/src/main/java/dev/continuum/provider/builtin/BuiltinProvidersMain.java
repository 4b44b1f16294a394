package dev.continuum.provider.builtin;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Serves the built-in providers on their own, e.g. for crash tests where the engine dies but
 * the provider must live on:
 * {@code java -jar continuum-builtin-providers-<ver>-runner.jar --port 8091 --effects-log effects.tsv}.
 */
public final class BuiltinProvidersMain {

    private static final String USAGE = """
            usage: continuum-builtin-providers [--port 8091] [--host 127.0.0.1] [--base-path /providers] [--effects-log FILE]
              serves echo, sleep, expression and notify at http://HOST:PORT/BASE/<name>
            """;

    private BuiltinProvidersMain() {}

    record Settings(int port, String host, String basePath, Path effectsLog) {}

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
        Vertx vertx = Vertx.vertx();
        BuiltinOptions options = settings.effectsLog() == null ? BuiltinOptions.defaults()
                : BuiltinOptions.defaults().withEffectsLog(settings.effectsLog());
        Router router = Router.router(vertx);
        router.get("/health").handler(rc -> rc.response().putHeader("Content-Type", "application/json")
                .end("{\"status\":\"UP\"}"));
        BuiltinProviders.mountAll(router, settings.basePath(), vertx, options);
        try {
            HttpServer server = vertx.createHttpServer().requestHandler(router)
                    .listen(settings.port(), settings.host())
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            String root = "http://" + settings.host() + ":" + server.actualPort() + settings.basePath();
            System.out.println("continuum built-in providers listening on " + root + "/{"
                    + String.join(",", BuiltinProviders.NAMES) + "}");
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
        int port = 8091;
        String host = "127.0.0.1";
        String basePath = "/providers";
        Path effectsLog = null;
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
                case "--port" -> port = port(value);
                case "--host" -> host = value;
                case "--base-path" -> basePath = value.equals("/") ? "" : value.replaceAll("/+$", "");
                case "--effects-log" -> effectsLog = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        return new Settings(port, host, basePath, effectsLog);
    }

    private static int port(String value) {
        try {
            int port = Integer.parseInt(value);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        throw new IllegalArgumentException("--port must be a number from 0 to 65535, not " + value);
    }
}
