package dev.continuum.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * `continuum up`: brings the platform up on one machine with nothing installed but a JDK —
 * PostgreSQL from Maven artifacts when no database is configured, then the engine — and runs
 * the example flow to completion so the user sees it work.
 */
public final class Up {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private record Options(int port, Path dataDir, Path engineJar, boolean example, boolean exitAfterExample) {}

    public static void main(String[] args) throws Exception {
        // Embedded PostgreSQL narrates every start and stop; the user needs only our summary lines.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Options options = parse(args);
        Files.createDirectories(options.dataDir());
        List<AutoCloseable> running = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeAll(running)));

        Map<String, String> db = database(options, running);
        Process engine = startEngine(options, db);
        running.add(0, () -> stop(engine));
        String api = "http://127.0.0.1:" + options.port();
        awaitReady(api, engine, options.dataDir().resolve("engine.log"));
        say("Continuum API:  " + api + "   (OpenAPI " + api + "/q/openapi, Swagger UI " + api + "/q/swagger-ui)");

        int exit = 0;
        if (options.example()) {
            exit = runExample(api);
        }
        if (options.exitAfterExample()) {
            closeAll(running);
            System.exit(exit);
        }
        say("Continuum is up. Press Ctrl-C to stop.");
        engine.waitFor();
    }

    private static Options parse(String[] args) {
        int port = 8080;
        Path dataDir = Path.of(".continuum");
        Path jar = Path.of("flow-engine/service/target/quarkus-app/quarkus-run.jar");
        boolean example = true;
        boolean exit = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                case "--engine-jar" -> jar = Path.of(value(args, ++i, "--engine-jar"));
                case "--no-example" -> example = false;
                case "--exit" -> exit = true;
                case "--help", "-h" -> {
                    System.out.println("""
                            usage: continuum up [--port 8080] [--data-dir .continuum] [--no-example] [--exit]
                              Starts PostgreSQL (embedded, unless CONTINUUM_DB_HOST is set) and the engine,
                              then runs the example flow and prints its run id and output.
                              --exit  stop everything after the example run (exit code 0 when it succeeded)""");
                    System.exit(0);
                }
                default -> fail("unknown option '" + args[i] + "' (try --help)");
            }
        }
        if (!Files.isRegularFile(jar)) {
            fail("the engine is not built: " + jar + " is missing. Build it with: mvn -B -q install -DskipTests");
        }
        return new Options(port, dataDir.toAbsolutePath(), jar.toAbsolutePath(), example, exit);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a value");
        }
        return args[i];
    }

    /** The configured database, or an embedded PostgreSQL whose data survives restarts in the data dir. */
    private static Map<String, String> database(Options options, List<AutoCloseable> running) throws Exception {
        String host = System.getenv("CONTINUUM_DB_HOST");
        if (host != null && !host.isBlank()) {
            say("Database:       " + host + ":" + System.getenv().getOrDefault("CONTINUUM_DB_PORT", "5432") + " (configured)");
            return Map.of();
        }
        int port = freePort();
        say("Database:       starting embedded PostgreSQL on 127.0.0.1:" + port + " (data in " + options.dataDir().resolve("postgres") + ")");
        EmbeddedPostgres pg = EmbeddedPostgres.builder()
                .setDataDirectory(options.dataDir().resolve("postgres"))
                .setCleanDataDirectory(false)
                .setPort(port)
                .start();
        running.add(pg);
        try (Connection c = DriverManager.getConnection(pg.getJdbcUrl("postgres", "postgres"))) {
            ResultSet rs = c.createStatement().executeQuery("SELECT 1 FROM pg_database WHERE datname = 'continuum'");
            if (!rs.next()) {
                c.createStatement().execute("CREATE DATABASE continuum");
            }
        }
        return Map.of("CONTINUUM_DB_HOST", "127.0.0.1", "CONTINUUM_DB_PORT", String.valueOf(port),
                "CONTINUUM_DB_NAME", "continuum", "CONTINUUM_DB_USER", "postgres");
    }

    private static Process startEngine(Options options, Map<String, String> db) throws IOException {
        Path log = options.dataDir().resolve("engine.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", options.engineJar().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().putAll(db);
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(options.port()));
        say("Engine:         starting (log in " + log + ")");
        return builder.start();
    }

    private static void awaitReady(String api, Process engine, Path log) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(120));
        while (Instant.now().isBefore(deadline)) {
            if (!engine.isAlive()) {
                fail("the engine exited during start-up (code " + engine.exitValue() + "); see " + log);
            }
            try {
                if (HTTP.send(HttpRequest.newBuilder(URI.create(api + "/q/health/ready")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        fail("the engine did not become ready within 120 s; see " + log);
    }

    private static int runExample(String api) throws Exception {
        String flow;
        try (InputStream in = Up.class.getResourceAsStream("/examples/hello-continuum.json")) {
            flow = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${providers}", api + "/providers");
        }
        JsonNode created = post(api + "/flows", flow, 201);
        String flowId = created.path("id").asText();
        say("Example flow:   " + flowId + " (" + created.path("title").asText() + ")");
        JsonNode run = post(api + "/flows/" + flowId + "/run", "{\"body\":{\"name\":\"Continuum\"},\"label\":\"example\"}", 201);
        String runId = run.path("run_id").asText();
        say("Run:            " + runId + " started; watch it at " + api + "/runs/" + runId);
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        String status = run.path("status").asText();
        while (status.equals("ACTIVE") && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            run = get(api + "/runs/" + runId);
            status = run.path("status").asText();
            System.out.print("\r                status " + status + " ...");
        }
        System.out.println();
        say("Run " + runId + " finished: " + status);
        say("Output:         " + JSON.writerWithDefaultPrettyPrinter().writeValueAsString(run.path("details")));
        return status.equals("SUCCEEDED") ? 0 : 1;
    }

    private static JsonNode post(String url, String body, int expected) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            fail("POST " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static JsonNode get(String url) throws Exception {
        return JSON.readTree(HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void stop(Process engine) throws InterruptedException {
        if (engine.isAlive()) {
            engine.destroy();
            if (!engine.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                engine.destroyForcibly();
            }
        }
    }

    private static synchronized void closeAll(List<AutoCloseable> running) {
        for (AutoCloseable closeable : running) {
            try {
                closeable.close();
            } catch (Exception e) {
                System.err.println("while stopping: " + e.getMessage());
            }
        }
        running.clear();
    }

    private static void say(String line) {
        System.out.println(line);
    }

    private static void fail(String message) {
        System.err.println("continuum up: " + message);
        System.exit(2);
    }
}
