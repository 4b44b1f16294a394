package dev.continuum.provider.server;

import dev.continuum.provider.api.IntegerParameter;
import dev.continuum.telemetry.OtlpTraces;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The start-up every provider's {@code main} shares (built-ins, transfer, inference, training): the command
 * line, the trace exporter, Vert.x, a router with {@code GET /health} and the metrics ({@link ProviderMetrics}), the HTTP server, and closing it all when the JVM stops. A
 * main states its options and mounts its providers; nothing else.
 */
public final class ProviderLauncher {

    private ProviderLauncher() {}

    /**
     * A parsed command line: options as {@code --name value} or {@code --name=value}, flags without a
     * value. Every getter that converts names the option in its error.
     */
    public static final class Arguments {

        private final Map<String, String> values;
        private final Set<String> flags;

        private Arguments(Map<String, String> values, Set<String> flags) {
            this.values = values;
            this.flags = flags;
        }

        /**
         * Reads {@code args} knowing which names take a value ({@code options}) and which do not
         * ({@code flags}). Returns null when help was asked for ({@code --help}, {@code -h}); throws
         * {@link IllegalArgumentException} naming an unknown option or one without its value.
         */
        public static Arguments parse(String[] args, Set<String> options, Set<String> flags) {
            Map<String, String> values = new HashMap<>();
            Set<String> set = new HashSet<>();
            for (int i = 0; i < args.length; i++) {
                String arg = args[i];
                int eq = arg.indexOf('=');
                String name = eq > 0 ? arg.substring(0, eq) : arg;
                if (name.equals("--help") || name.equals("-h")) {
                    return null;
                }
                if (flags.contains(name) && eq < 0) {
                    set.add(name);
                } else if (options.contains(name)) {
                    if (eq > 0) {
                        values.put(name, arg.substring(eq + 1));
                    } else if (i + 1 < args.length) {
                        values.put(name, args[++i]);
                    } else {
                        throw new IllegalArgumentException("missing value for " + name);
                    }
                } else {
                    throw new IllegalArgumentException("unknown option " + name);
                }
            }
            return new Arguments(values, set);
        }

        public Optional<String> text(String name) {
            return Optional.ofNullable(values.get(name));
        }

        public String text(String name, String fallback) {
            return values.getOrDefault(name, fallback);
        }

        public Optional<Path> path(String name) {
            return text(name).map(Path::of);
        }

        public boolean flag(String name) {
            return flags.contains(name);
        }

        /** A whole number from {@code min} to {@code max}; {@link IntegerParameter.Invalid} names the option otherwise. */
        public int number(String name, int fallback, int min, int max) {
            return IntegerParameter.parse(name, values.get(name), fallback, min, max);
        }

        /** A TCP port; 0 lets the system choose a free one. */
        public int port(String name, int fallback) {
            return number(name, fallback, 0, 65535);
        }

        /** A URL path prefix: no trailing slash, {@code "/"} as the empty prefix. */
        public String basePath(String name, String fallback) {
            String value = values.getOrDefault(name, fallback);
            return value.equals("/") ? "" : value.replaceAll("/+$", "");
        }
    }

    /**
     * The main's settings from {@code args} by {@code parse} (null meaning help was asked for): a bad
     * command line prints the problem and {@code usage} and exits 2; help prints {@code usage} and exits 0.
     */
    public static <S> S settingsOrExit(String[] args, String usage, Function<String[], S> parse) {
        S settings;
        try {
            settings = parse.apply(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.print(usage);
            System.exit(2);
            return null;
        }
        if (settings == null) {
            System.out.print(usage);
            System.exit(0);
        }
        return settings;
    }

    /** What a main serves: mounts its routes; returns what to close when the JVM stops (null: nothing). */
    @FunctionalInterface
    public interface Mount {
        AutoCloseable mount(Vertx vertx, Router router) throws Exception;
    }

    /**
     * Installs the trace exporter the {@code OTEL_*} settings ask for ({@link OtlpTraces}: spans of
     * {@code serviceName} over OTLP/HTTP, off by default), starts Vert.x, lets {@code mount} add its routes (a
     * plain {@code GET /health} answering {@code {"status":"UP"}} is added unless it mounted its own, and
     * {@code GET /q/metrics}), listens on
     * host:port — with HTTPS only when {@code CONTINUUM_TLS_CERT_FILE} and {@code CONTINUUM_TLS_KEY_FILE} are set, its
     * clients trusting {@code CONTINUUM_TLS_CA_FILE} too ({@link Https}) — and returns the port it got. When the JVM stops, what {@code mount} returned is closed, then
     * Vert.x. When it cannot mount or listen, prints why and exits 1.
     */
    public static int serve(String serviceName, String host, int port, Mount mount) {
        // first: ProviderServerOptions.of reads the global OpenTelemetry, which is fixed once read
        OtlpTraces.installGlobal(serviceName);
        Optional<Https> https;
        try {
            // before any client exists: the clients mount creates trust the CA from the start
            Https.trustCaFromEnvironment(System.getenv()).ifPresent(ca -> System.out.println("HTTPS clients trust " + ca));
            https = Https.fromEnvironment(System.getenv());
        } catch (RuntimeException e) {
            System.err.println("cannot start: " + e.getMessage());
            System.exit(1);
            return -1;
        }
        Vertx vertx = Vertx.vertx();
        Router router = Router.router(vertx);
        AutoCloseable resources;
        try {
            resources = mount.mount(vertx, router);
        } catch (Exception e) {
            System.err.println("cannot start: " + e.getMessage());
            vertx.close();
            System.exit(1);
            return -1;
        }
        if (router.getRoutes().stream().noneMatch(r -> "/health".equals(r.getPath()))) {
            router.get("/health").handler(rc -> rc.response().putHeader("Content-Type", "application/json")
                    .end("{\"status\":\"UP\"}"));
        }
        ProviderMetrics.mount(router);
        try {
            HttpServerOptions serverOptions = https.map(h -> h.apply(new HttpServerOptions())).orElseGet(HttpServerOptions::new);
            HttpServer server = vertx.createHttpServer(serverOptions).requestHandler(router).listen(port, host)
                    .toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                closeQuietly(resources);
                vertx.close().toCompletionStage().toCompletableFuture().orTimeout(5, TimeUnit.SECONDS).join();
            }));
            https.ifPresent(h -> System.out.println("HTTPS only on port " + server.actualPort() + ", certificate " + h.certFile()));
            return server.actualPort();
        } catch (Exception e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            System.err.println("cannot listen on " + host + ":" + port + ": " + cause.getMessage());
            closeQuietly(resources);
            vertx.close();
            System.exit(1);
            return -1;
        }
    }

    private static void closeQuietly(AutoCloseable resources) {
        if (resources == null) {
            return;
        }
        try {
            resources.close();
        } catch (Exception e) {
            System.err.println("while stopping: " + e.getMessage());
        }
    }
}
