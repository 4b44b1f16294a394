package dev.continuum.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.InputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * `continuum up`: brings the platform up on one machine with nothing installed but a JDK —
 * Keycloak and PostgreSQL from Maven artifacts when no external ones are configured, then the
 * engine with sign-in required, the edge ({@link EdgeUp}: MQTT broker, inference provider, two
 * gateways), the transfer provider with the gateways' storage ({@link TransferUp}) and the training
 * provider ({@link TrainingUp}) — and runs the
 * example flows to completion, as the local demo scientist, so the user sees it work.
 */
public final class Up {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Where the demo instrument beside gw-1 drops its file, in the gateway's storage. */
    static final String INSTRUMENT_FILE = "instrument/frame-0001.json";
    /** The labelled points the demo instrument beside gw-1 leaves for retraining, in the gateway's storage. */
    static final String TRAINING_POINTS = "instrument/training-points.json";
    /** A point the retrained model classifies afterwards, in gw-1's storage (the middle of class 0). */
    static final String SAMPLE_POINT = "samples/point.json";
    /** Who owns the transfer endpoints; default {@link LocalIdentity.Setup#localUser()}. */
    static final String OWNER_KEY = "CONTINUUM_ENDPOINT_OWNER";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private record Options(int port, int keycloakPort, Path dataDir, Path engineJar, boolean example, boolean exitAfterExample,
                           boolean edge) {}

    public static void main(String[] args) throws Exception {
        // Embedded PostgreSQL narrates every start and stop; the user needs only our summary lines.
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        Options options = parse(args);
        Instant started = Instant.now();
        Files.createDirectories(options.dataDir());
        List<AutoCloseable> running = new ArrayList<>();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> closeAll(running)));

        LocalIdentity.Setup identity = identity(options, running);
        Map<String, String> db = database(options, running);
        // the planner's address is fixed before the engine starts, so the web UI's devices page can ask it
        EdgeUp.PlannerAccess planner = options.edge() ? plannerAccess(identity, db) : null;
        Map<String, String> engineEnv = new HashMap<>(identity.engineEnv());
        if (planner != null) {
            engineEnv.put("CONTINUUM_UI_PLANNER_URL", planner.url());
        }
        Path repo = Path.of("").toAbsolutePath();
        // the broker is chosen before the engine starts: the engine takes file events from it (file triggers)
        Optional<EdgeUp.Link> edgeLink = Optional.empty();
        if (options.edge()) {
            try {
                edgeLink = EdgeUp.plan(repo, options.dataDir());
            } catch (IllegalStateException e) {
                fail("cannot bring the edge up: " + e.getMessage() + " (--no-edge starts without it)");
            }
        }
        edgeLink.ifPresent(link -> engineEnv.putAll(link.engineEnv()));
        // the training provider's port is fixed before the engine starts: the engine relays operators' calls to it
        // (continuum training ..., /ops/training)
        int trainingPort = ChildProcesses.freePort();
        if (options.edge()) {
            engineEnv.put("CONTINUUM_OPS_TRAINING_URL", TrainingUp.providerUrl(trainingPort));
        }
        Process engine = startEngine(options, db, engineEnv);
        running.add(0, () -> stop(engine));
        // the edge and the transfer provider start while the engine boots; they are stopped before it,
        // the transfer provider and the gateways' storage before the edge (its broker)
        Optional<EdgeUp> edge = Optional.empty();
        Optional<TransferUp> transfer = Optional.empty();
        Optional<TrainingUp> training = Optional.empty();
        try {
            // with sign-in on, a provider accepts only tokens issued for it (the engine's delegated ones)
            Map<String, String> providerAuth = identity.enabled()
                    ? Map.of("CONTINUUM_AUTH_ENABLED", "true", "CONTINUUM_AUTH_ISSUER", identity.issuer().orElseThrow())
                    : Map.of();
            // the transfer provider's port is fixed before the edge starts: the inference provider moves a job's
            // input through it when the planner runs the job away from its data
            int transferPort = ChildProcesses.freePort();
            EdgeUp.InputMoves inputMoves = TransferUp.jar(repo).isEmpty() ? null : new EdgeUp.InputMoves(
                    TransferUp.providerUrl(transferPort) + "/transfer", carrierLogin(identity));
            if (edgeLink.isPresent()) {
                edge = Optional.of(EdgeUp.start(repo, options.dataDir(), edgeLink.get(), providerAuth, planner, inputMoves));
            }
            edge.ifPresent(e -> running.add(0, e));
            if (edge.isPresent()) {
                transfer = TransferUp.start(repo, options.dataDir(), edge.get(), endpointOwner(identity), providerAuth,
                        transferPort, carrierLogin(identity).isEmpty() ? List.of()
                                : List.of("service-account-" + carrierLogin(identity).get("CONTINUUM_TRANSFER_CLIENT_ID")));
                transfer.ifPresent(t -> running.add(0, t));
            }
            if (transfer.isPresent()) {
                training = TrainingUp.start(repo, options.dataDir(), transfer.get().datacenter(), providerAuth,
                        edge.get().plannerUrl(), edge.get().plannerLogin(), trainingPort);
                training.ifPresent(t -> running.add(0, t));
            }
        } catch (IllegalStateException e) {
            fail("cannot bring the edge up: " + e.getMessage() + " (--no-edge starts without it)");
        }
        String api = "http://127.0.0.1:" + options.port();
        awaitReady(api, engine, options.dataDir().resolve("engine.log"));
        say("Start-up:       everything up after " + Duration.between(started, Instant.now()).toSeconds() + " s");
        say("Continuum API:  " + api + "   (OpenAPI " + api + "/q/openapi, Swagger UI " + api + "/q/swagger-ui)");
        say("Web UI:         " + api + "/   (sign in as a demo user below)");

        int exit = 0;
        if (options.example()) {
            exit = runExample(api, identity, "/examples/hello-continuum.json", Map.of("${providers}", api + "/providers"),
                    "{\"body\":{\"name\":\"Continuum\"},\"label\":\"example\"}");
            if (exit == 0) {
                exit = runChildFlowsExample(api, identity);
            }
            if (edge.isPresent() && exit == 0) {
                // the frame lies on gw-1 (its instrument's gateway); the planner weighs running there against moving it
                long frameBytes = Files.size(edge.get().dataDir(EdgeUp.GATEWAYS.getFirst()).resolve(EdgeUp.EXAMPLE_FRAME));
                JsonNode run = runExampleToEnd(api, identity, "/examples/edge-inference.json",
                        Map.of("${inference}", edge.get().providerUrl()),
                        "{\"body\":{\"frame\":\"file:" + EdgeUp.EXAMPLE_FRAME + "\",\"frame_location\":{\"endpoint_id\":\""
                                + EdgeUp.GATEWAYS.getFirst() + "\",\"size_bytes\":" + frameBytes + "}},\"label\":\"edge example\"}");
                exit = succeeded(run);
                if (run != null) {
                    PlacementReport.print(run, edge.get().plannerUrl());
                }
            }
            if (transfer.isPresent() && exit == 0) {
                exit = runInstrumentExample(api, identity, edge.get(), transfer.get());
            }
            if (training.isPresent() && exit == 0) {
                exit = runRetrainExample(api, identity, edge.get(), transfer.get(), training.get());
            }
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
        int keycloakPort = 8180;
        Path dataDir = Path.of(".continuum");
        Path jar = Path.of("flow-engine/service/target/quarkus-app/quarkus-run.jar");
        boolean example = true;
        boolean exit = false;
        boolean edge = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--keycloak-port" -> keycloakPort = Integer.parseInt(value(args, ++i, "--keycloak-port"));
                case "--data-dir" -> dataDir = Path.of(value(args, ++i, "--data-dir"));
                case "--engine-jar" -> jar = Path.of(value(args, ++i, "--engine-jar"));
                case "--no-example" -> example = false;
                case "--exit" -> exit = true;
                case "--no-edge" -> edge = false;
                case "--help", "-h" -> {
                    System.out.println("""
                            usage: continuum up [--port 8080] [--keycloak-port 8180] [--data-dir .continuum] [--no-example] [--no-edge] [--exit]
                              Starts Keycloak (unless CONTINUUM_AUTH_ISSUER names one), PostgreSQL (embedded, unless
                              CONTINUUM_DB_HOST is set) and the engine with sign-in required, then runs the example
                              flow as the local demo scientist and prints its run id and output.
                              Also starts an MQTT broker (embedded Moquette, unless CONTINUUM_MQTT_BROKER=host:port is
                              set), the inference provider and two edge gateways (gw-1, gw-2; --no-edge: none), and
                              runs a second example that classifies an image on a gateway; with the edge, the transfer
                              provider (endpoints: datacenter = <data-dir>/datacenter, gw-1 and gw-2 = the gateways'
                              storage) and a third example: a file dropped on gw-1 moves to the datacenter and is
                              classified on gw-1; with the transfer provider, the training provider (local backend) and
                              a fourth example: gw-1's labelled points are gathered, a model is trained on them and
                              deployed to both gateways (its digest replaces the first version's), then classifies.
                              CONTINUUM_TRAINING_BACKEND=slurm with CONTINUUM_SLURM_URL, CONTINUUM_SLURM_TOKEN_FILE
                                [CONTINUUM_SLURM_USER, CONTINUUM_SLURM_PARTITIONS, CONTINUUM_SLURM_CONF]  train on Slurm
                              CONTINUUM_ENDPOINT_OWNER=<user>  who owns those endpoints (default: the signed-in demo user)
                              --exit  stop everything after the example runs (exit code 0 when they succeeded)
                              CONTINUUM_AUTH_ENABLED=false  no sign-in at all (development only; keep it on this machine)""");
                    System.exit(0);
                }
                default -> fail("unknown option '" + args[i] + "' (try --help)");
            }
        }
        if (!Files.isRegularFile(jar)) {
            fail("the engine is not built: " + jar + " is missing. Build it with: mvn -B -q install -DskipTests");
        }
        return new Options(port, keycloakPort, dataDir.toAbsolutePath(), jar.toAbsolutePath(), example, exit, edge);
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a value");
        }
        return args[i];
    }

    private static LocalIdentity.Setup identity(Options options, List<AutoCloseable> running) throws IOException {
        try {
            return LocalIdentity.prepare(System.getenv(), options.dataDir(), options.keycloakPort(), running, Up::say);
        } catch (IllegalStateException | java.io.UncheckedIOException e) {
            fail("cannot start the sign-in service: " + e.getMessage());
            throw e;
        }
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
            createIfMissing(c, "continuum");
        }
        return Map.of("CONTINUUM_DB_HOST", "127.0.0.1", "CONTINUUM_DB_PORT", String.valueOf(port),
                "CONTINUUM_DB_NAME", "continuum", "CONTINUUM_DB_USER", "postgres");
    }

    /** The planner's own database: each service's Flyway wants a schema that holds only its own tables. */
    static final String PLANNER_DB = "continuum_planner";

    private static void createIfMissing(Connection c, String database) throws java.sql.SQLException {
        ResultSet rs = c.createStatement().executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + database + "'");
        if (!rs.next()) {
            c.createStatement().execute("CREATE DATABASE " + database);
        }
    }

    /**
     * The planner's database environment: on the same server as the engine's (embedded or configured), database
     * {@code CONTINUUM_PLANNER_DB_NAME} (default {@value #PLANNER_DB}), made if missing. Empty when it cannot be made.
     */
    private static Optional<Map<String, String>> plannerDatabase(Map<String, String> db) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.putAll(db);
        String name = env.getOrDefault("CONTINUUM_PLANNER_DB_NAME", PLANNER_DB);
        String url = "jdbc:postgresql://" + env.getOrDefault("CONTINUUM_DB_HOST", "127.0.0.1") + ":"
                + env.getOrDefault("CONTINUUM_DB_PORT", "5432") + "/postgres";
        try (Connection c = DriverManager.getConnection(url, env.getOrDefault("CONTINUUM_DB_USER", "postgres"),
                env.getOrDefault("CONTINUUM_DB_PASSWORD", ""))) {
            createIfMissing(c, name);
        } catch (java.sql.SQLException e) {
            say("Planner:        skipped — cannot make its database " + name + ": " + e.getMessage());
            return Optional.empty();
        }
        Map<String, String> planner = new HashMap<>(db);
        planner.put("CONTINUUM_DB_NAME", name);
        return Optional.of(planner);
    }

    private static Process startEngine(Options options, Map<String, String> db, Map<String, String> auth) throws IOException {
        Path log = options.dataDir().resolve("engine.log");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-jar", options.engineJar().toString())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log.toFile()));
        builder.environment().putAll(db);
        builder.environment().putAll(auth);
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(options.port()));
        say("Engine:         starting (log in " + log + ")");
        ChildTraces.note(System.getenv()).ifPresent(note -> say("Traces:         " + note));
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

    /**
     * The brief's headline flow, started the way an instrument starts it: a file trigger on gw-1's {@code instrument/}
     * directory; the "instrument" drops a frame there (written under a temporary name, then renamed, as instruments
     * do), the gateway reports it once complete, and the run moves it to the datacenter (checksummed) and classifies it
     * on gw-1.
     */
    private static int runInstrumentExample(String api, LocalIdentity.Setup identity, EdgeUp edge, TransferUp transfer)
            throws Exception {
        Optional<String> token = demoToken(identity);
        if (token.isEmpty()) {
            return 0;
        }
        String bearer = token.get();
        String gateway = EdgeUp.GATEWAYS.getFirst();
        String flowId = publishExample(api, bearer, "/examples/instrument-to-datacenter.json",
                Map.of("${transfer}", transfer.providerUrl(), "${inference}", edge.providerUrl()));
        String folder = INSTRUMENT_FILE.substring(0, INSTRUMENT_FILE.lastIndexOf('/') + 1);
        ObjectNode trigger = JSON.createObjectNode().put("title", "instrument frames on " + gateway).put("flow_id", flowId)
                .put("run_label", "instrument example");
        trigger.putObject("source").put("type", "file").put("gateway", gateway).put("path", folder)
                .put("glob", "frame-*.json").putObject("complete").put("stable_seconds", 1);
        ((ObjectNode) trigger.get("source")).putArray("ignore").add("*.part");
        trigger.putObject("input_template").put("gateway.$", "$.endpoint").put("file.$", "$.path");
        // the trigger an earlier `up` on this data directory made would start a second run for the same frame
        for (JsonNode earlier : get(api + "/triggers", bearer).path("triggers")) {
            if (earlier.path("title").asText().equals(trigger.path("title").asText())) {
                HTTP.send(authorized(HttpRequest.newBuilder(URI.create(api + "/triggers/" + earlier.path("id").asText())), bearer)
                        .DELETE().build(), HttpResponse.BodyHandlers.discarding());
            }
        }
        String triggerId = post(api + "/triggers", JSON.writeValueAsString(trigger), 201, bearer).path("id").asText();
        say("File trigger:   " + triggerId + " starts it for each complete " + folder + "frame-*.json on " + gateway
                + " (./continuum cli trigger events " + triggerId + ")");

        Path dropped = edge.dataDir(gateway).resolve(INSTRUMENT_FILE);
        Files.createDirectories(dropped.getParent());
        Files.deleteIfExists(dropped); // a file left by an earlier `up` is not new
        Path partial = dropped.resolveSibling(dropped.getFileName() + ".part");
        Files.writeString(partial, EdgeUp.exampleFrame());
        // the watch list reaches the gateway over MQTT; a file present before it arrives counts as new all the same
        Files.move(partial, dropped, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        say("Instrument:     dropped " + dropped + " (" + Files.size(dropped) + " bytes); it should arrive as "
                + transfer.datacenter().resolve(gateway).resolve(INSTRUMENT_FILE));

        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        Progress progress = Progress.onStdout();
        JsonNode started = null;
        while (started == null && Instant.now().isBefore(deadline)) {
            for (JsonNode event : get(api + "/triggers/" + triggerId + "/events", bearer).path("events")) {
                if (event.path("outcome").asText().equals("started")) {
                    started = event;
                } else if (event.path("outcome").asText().equals("rejected")) {
                    progress.done();
                    say("File trigger:   the event was rejected: " + event.path("reason").asText());
                    return 1;
                }
            }
            if (started == null) {
                progress.show("                waiting for " + gateway + " to report the frame complete ...");
                Thread.sleep(250);
            }
        }
        progress.done();
        if (started == null) {
            say("File trigger:   no run started within 60 s of the drop; see " + edge.dataDir(gateway).getParent() + "'s log");
            return 1;
        }
        say("File trigger:   " + gateway + " reported " + INSTRUMENT_FILE + " complete; it started run " + started.path("run_id").asText());
        return succeeded(followRun(api, bearer, started.path("run_id").asText()));
    }

    /**
     * "Train on the cluster, push the new model to the edge": the instrument beside gw-1 leaves labelled points;
     * the flow gathers them to the datacenter, trains the demo classifier on them with the training provider,
     * deploys the model to both gateways (replacing the first version they started with) and classifies a sample
     * on gw-1 with it.
     */
    private static int runRetrainExample(String api, LocalIdentity.Setup identity, EdgeUp edge, TransferUp transfer,
                                         TrainingUp training) throws Exception {
        String gateway = EdgeUp.GATEWAYS.getFirst();
        Path points = edge.dataDir(gateway).resolve(TRAINING_POINTS);
        Files.createDirectories(points.getParent());
        Files.writeString(points, instrumentPoints(300, new java.util.Random(Instant.now().toEpochMilli())));
        Path sample = edge.dataDir(gateway).resolve(SAMPLE_POINT);
        Files.createDirectories(sample.getParent());
        Files.writeString(sample, "{\"shape\": [1, 4], \"data\": [2.0, 0.0, -1.0, 0.0]}");
        say("Instrument:     left " + points + " (300 labelled points) for retraining");
        List<String> trainer = training.demoTrainerCommand();
        ArrayNode devices = JSON.createArrayNode();
        EdgeUp.GATEWAYS.forEach(devices::add);
        ObjectNode body = JSON.createObjectNode().put("gateway", gateway).put("data_file", TRAINING_POINTS).put("sample", SAMPLE_POINT);
        body.set("devices", devices);
        ObjectNode start = JSON.createObjectNode().put("label", "retrain example");
        start.set("body", body);
        return runExample(api, identity, "/examples/retrain-and-deploy.json",
                Map.of("${transfer}", transfer.providerUrl(), "${inference}", edge.providerUrl(),
                        "${training}", training.providerUrl(), "${datacenter}", transfer.datacenter().toString(),
                        "${java}", trainer.get(0), "${trainer_jar}", trainer.get(2)),
                JSON.writeValueAsString(start));
    }

    /**
     * What the demo instrument measures: points of three clusters in four features (class c around
     * (2 cos θ, 2 sin θ, c − 1, 0) with θ = 2πc/3), labelled, as the demo trainer reads them.
     */
    static String instrumentPoints(int n, java.util.Random random) throws IOException {
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode features = doc.putArray("features");
        ArrayNode labels = doc.putArray("labels");
        for (int i = 0; i < n; i++) {
            int c = i % 3;
            double angle = 2 * Math.PI * c / 3;
            features.addArray().add(2 * Math.cos(angle) + random.nextGaussian() * 0.9)
                    .add(2 * Math.sin(angle) + random.nextGaussian() * 0.9).add(c - 1 + random.nextGaussian() * 1.2)
                    .add(random.nextGaussian());
            labels.add(c);
        }
        return JSON.writeValueAsString(doc);
    }

    /**
     * How the inference provider signs its calls to the transfer provider: with sign-in on, the local realm's carrier
     * account, or {@code CONTINUUM_TRANSFER_CLIENT_ID/SECRET} for another issuer; empty with sign-in off (no tokens).
     */
    private static Map<String, String> carrierLogin(LocalIdentity.Setup identity) {
        if (!identity.enabled()) {
            return Map.of();
        }
        String id = identity.local() ? TransferUp.CARRIER : System.getenv("CONTINUUM_TRANSFER_CLIENT_ID");
        String secret = identity.local() ? TransferUp.CARRIER + "-local-secret" : System.getenv("CONTINUUM_TRANSFER_CLIENT_SECRET");
        if (id == null || id.isBlank()) {
            return Map.of();
        }
        return Map.of("CONTINUUM_AUTH_ISSUER", identity.issuer().orElseThrow(), "CONTINUUM_TRANSFER_CLIENT_ID", id,
                "CONTINUUM_TRANSFER_CLIENT_SECRET", secret == null ? "" : secret);
    }

    private static String endpointOwner(LocalIdentity.Setup identity) {
        String configured = System.getenv(OWNER_KEY);
        return configured == null || configured.isBlank() ? identity.localUser() : configured.trim();
    }

    /**
     * How the planner is reached from up's children: with sign-in on, the issuer, the database and the realm's
     * reporter service account (local realm, or {@code CONTINUUM_PLANNER_CLIENT_ID/SECRET} for another issuer);
     * null — no planner — when sign-in is off or no account is known for another issuer.
     */
    private static EdgeUp.PlannerAccess plannerAccess(LocalIdentity.Setup identity, Map<String, String> db) throws IOException {
        if (!identity.enabled()) {
            return null;
        }
        String id = identity.local() ? EdgeUp.REPORTER : System.getenv("CONTINUUM_PLANNER_CLIENT_ID");
        String secret = identity.local() ? EdgeUp.REPORTER + "-local-secret" : System.getenv("CONTINUUM_PLANNER_CLIENT_SECRET");
        if (id == null || secret == null) {
            say("Planner:        skipped — set CONTINUUM_PLANNER_CLIENT_ID/CONTINUUM_PLANNER_CLIENT_SECRET (a service account"
                    + " of " + identity.issuer().orElseThrow() + " with audience continuum-engine) to start it");
            return null;
        }
        String url = "http://127.0.0.1:" + ChildProcesses.freePort();
        return plannerDatabase(db).map(plannerDb -> new EdgeUp.PlannerAccess(url, identity.issuer().orElseThrow(), plannerDb, id, secret))
                .orElse(null);
    }

    private static int runExample(String api, LocalIdentity.Setup identity, String resource,
                                  Map<String, String> placeholders, String start) throws Exception {
        return succeeded(runExampleToEnd(api, identity, resource, placeholders, start));
    }

    /**
     * Flows run flows: publishes the child (calibrate one sample), then a parent that maps it over three samples, each
     * item an Action naming the child flow's own action URL; prints the child runs the parent's run document lists.
     */
    private static int runChildFlowsExample(String api, LocalIdentity.Setup identity) throws Exception {
        Optional<String> token = demoToken(identity);
        if (token.isEmpty()) {
            return 0;
        }
        String childId = publishExample(api, token.get(), "/examples/calibrate-sample.json", Map.of());
        JsonNode run = runExampleToEnd(api, identity, "/examples/map-samples.json",
                Map.of("${child}", api + "/flows/" + childId + "/actions"),
                "{\"body\":{\"gain\":1.5,\"samples\":[{\"sample\":\"s-1\",\"reading\":2},"
                        + "{\"sample\":\"s-2\",\"reading\":4},{\"sample\":\"s-3\",\"reading\":8}]},"
                        + "\"label\":\"child flows example\"}");
        if (run != null) {
            List<String> children = new ArrayList<>();
            run.path("child_run_ids").forEach(id -> children.add(id.asText()));
            say("Child runs:     " + children.size() + " of flow " + childId + ", one per sample: "
                    + String.join(", ", children));
        }
        return succeeded(run);
    }

    /** 0 when the run succeeded or was skipped (null), else 1: up's exit code after {@code --exit}. */
    private static int succeeded(JsonNode run) {
        return run == null || run.path("status").asText().equals("SUCCEEDED") ? 0 : 1;
    }

    /** Deploys and runs one example flow to its end; null when skipped (no demo user to run it as). */
    private static JsonNode runExampleToEnd(String api, LocalIdentity.Setup identity, String resource,
                                            Map<String, String> placeholders, String start) throws Exception {
        Optional<String> token = demoToken(identity);
        if (token.isEmpty()) {
            return null;
        }
        String bearer = token.get();
        String flowId = publishExample(api, bearer, resource, placeholders);
        JsonNode run = post(api + "/flows/" + flowId + "/run", start, 201, bearer);
        return followRun(api, bearer, run.path("run_id").asText());
    }

    /** The demo user's token ("" with sign-in off); empty, saying why, when there is no demo user to act as. */
    private static Optional<String> demoToken(LocalIdentity.Setup identity) {
        Optional<String> token = identity.enabled() ? identity.demoToken() : Optional.of("");
        if (token.isEmpty()) {
            say("Example:        skipped: the demo users exist only in the Keycloak that `up` starts. Sign in with"
                    + " `./continuum cli login` and deploy deploy/src/main/resources/examples/hello-continuum.json.");
        }
        return token;
    }

    /**
     * Publishes an example flow with its placeholders filled in; its id. A flow of the same title the demo user owns
     * already (from an earlier `up` on this data directory) gets a new version instead, so restarts do not pile up
     * identical copies told apart only by time.
     */
    private static String publishExample(String api, String bearer, String resource, Map<String, String> placeholders)
            throws Exception {
        String flow;
        try (InputStream in = Up.class.getResourceAsStream(resource)) {
            flow = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (Map.Entry<String, String> p : placeholders.entrySet()) {
            flow = flow.replace(p.getKey(), p.getValue());
        }
        String title = JSON.readTree(flow).path("title").asText();
        Optional<String> existing = ownFlowTitled(api, bearer, title);
        JsonNode published = existing.isPresent()
                ? put(api + "/flows/" + existing.get(), flow, 200, bearer)
                : post(api + "/flows", flow, 201, bearer);
        String flowId = published.path("id").asText();
        say("Example flow:   " + flowId + " (" + title + (existing.isPresent()
                ? ", version " + published.path("version").asText() + ")" : ")"));
        return flowId;
    }

    /** The id of a flow the caller owns with exactly this title; the title filter matches substrings, so pages on. */
    private static Optional<String> ownFlowTitled(String api, String bearer, String title) throws Exception {
        String page = api + "/flows?filter_roles=flow_owner&filter_title="
                + URLEncoder.encode(title, StandardCharsets.UTF_8);
        while (true) {
            JsonNode flows = get(page, bearer);
            for (JsonNode flow : flows.path("flows")) {
                if (flow.path("title").asText().equals(title)) {
                    return Optional.of(flow.path("id").asText());
                }
            }
            if (!flows.path("has_next_page").asBoolean(false)) {
                return Optional.empty();
            }
            page = api + "/flows?marker=" + URLEncoder.encode(flows.path("marker").asText(), StandardCharsets.UTF_8);
        }
    }

    /** Shows a run's progress until it ends (at most 5 minutes: a training run on a busy machine); its last document. */
    private static JsonNode followRun(String api, String bearer, String runId) throws Exception {
        say("Run:            " + runId + " started" + (bearer.isEmpty() ? "" : " as " + LocalIdentity.DEMO_USER)
                + "; watch it with: ./continuum cli watch " + runId + " (after ./continuum cli login)");
        say("In the browser: " + api + "/#/runs/" + runId);
        Instant deadline = Instant.now().plus(Duration.ofMinutes(5));
        JsonNode run = get(api + "/runs/" + runId, bearer);
        String status = run.path("status").asText();
        Progress progress = Progress.onStdout();
        while (status.equals("ACTIVE") && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
            run = get(api + "/runs/" + runId, bearer);
            status = run.path("status").asText();
            progress.show("                status " + status + " ...");
        }
        progress.done();
        say("Run " + runId + " finished: " + status);
        say("Output:         " + JSON.writerWithDefaultPrettyPrinter().writeValueAsString(run.path("details")));
        return run;
    }

    private static JsonNode post(String url, String body, int expected, String bearer) throws Exception {
        return send("POST", url, body, expected, bearer);
    }

    private static JsonNode put(String url, String body, int expected, String bearer) throws Exception {
        return send("PUT", url, body, expected, bearer);
    }

    private static JsonNode send(String method, String url, String body, int expected, String bearer) throws Exception {
        HttpResponse<String> response = HTTP.send(authorized(HttpRequest.newBuilder(URI.create(url)), bearer)
                .header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != expected) {
            fail(method + " " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return JSON.readTree(response.body());
    }

    private static JsonNode get(String url, String bearer) throws Exception {
        return JSON.readTree(HTTP.send(authorized(HttpRequest.newBuilder(URI.create(url)), bearer).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder request, String bearer) {
        return bearer.isEmpty() ? request : request.header("Authorization", "Bearer " + bearer);
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
