package dev.continuum.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The edge half of {@code continuum up}: an MQTT broker (the machine's when {@code CONTINUUM_MQTT_BROKER}
 * names one, else Moquette embedded in the inference provider's process), the inference provider, two
 * edge gateways and the datacenter inference pool (the gateway runtime in the datacenter role) with the demo
 * classifier, and — with sign-in on — the placement planner service, which places every inference job; each a
 * child process with its log in {@code <data>/edge}. Everything it starts is stopped by {@link #close()}.
 */
final class EdgeUp implements AutoCloseable {

    /** host:port of an MQTT broker to use instead of the embedded one. */
    static final String BROKER_KEY = "CONTINUUM_MQTT_BROKER";
    static final List<String> GATEWAYS = List.of("gw-1", "gw-2");
    /** The demo classifier's name on the gateways: a first version at start, the retrained one deployed by a flow. */
    static final String DEMO_MODEL = "demo-cls";
    /**
     * The datacenter inference pool: the gateway runtime in the datacenter role, its storage the datacenter endpoint's.
     * Its device id is the endpoint's name, so a file trigger on the datacenter names the endpoint a transfer reads.
     */
    static final String POOL = TransferUp.DATACENTER;
    /** The realm's service account for reporting to the planner (local realm only; its secret is public and local). */
    static final String REPORTER = "continuum-planner-reporter";
    /**
     * How the planner is reached and signs in: the issuer, the database environment (empty: inherited), the
     * service account the provider asks it with. Null: no planner (sign-in off — it takes tokens only).
     */
    record PlannerAccess(String url, String issuer, Map<String, String> db, String clientId, String clientSecret) {
        @Override
        public String toString() {
            return "PlannerAccess[" + url + ", " + issuer + ", " + clientId + "]";
        }
    }
    /**
     * How the inference provider moves a job's input to the site the planner chose: the transfer action's URL and the
     * environment that signs its calls (empty: none, sign-in off). Null: no transfer provider, nothing is moved.
     */
    record InputMoves(String transferUrl, Map<String, String> login) {
        @Override
        public String toString() {
            return "InputMoves[" + transferUrl + "]";
        }
    }

    /** Where the example flow's input_ref points, inside each gateway's data directory. */
    static final String EXAMPLE_FRAME = "frames/example-frame.json";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String MODEL = "edge-gateway/target/npm-models/package/assets/ch_ppocr_mobile_v2.0_cls_infer.onnx";

    /**
     * How the edge's parts reach each other: the broker ({@code host:port}), the topic root under it, and
     * the environment that logs the cloud's other clients in as the operator (empty for a configured
     * broker: nothing changes there unless the operator sets {@code CONTINUUM_MQTT_USERNAME/PASSWORD}), the
     * operator secret that signs device credentials, and whether the inference provider embeds the broker.
     */
    record Link(String broker, String topicRoot, Map<String, String> operatorLogin, String secret, boolean embedded) {

        /** The engine's settings for file triggers on this broker (docs/triggers.md, {@code continuum.edge.*}). */
        Map<String, String> engineEnv() {
            Map<String, String> env = new HashMap<>(Map.of("CONTINUUM_EDGE_BROKER", broker, "CONTINUUM_EDGE_TOPIC_ROOT", topicRoot));
            if (operatorLogin.containsKey("CONTINUUM_MQTT_USERNAME")) {
                env.put("CONTINUUM_EDGE_USERNAME", operatorLogin.get("CONTINUUM_MQTT_USERNAME"));
                env.put("CONTINUUM_EDGE_PASSWORD", operatorLogin.get("CONTINUUM_MQTT_PASSWORD"));
            }
            return env;
        }

        @Override
        public String toString() {
            return "Link[" + broker + ", " + topicRoot + "]";
        }
    }

    private final Path dir;
    private final Path modelRoot;
    private final ChildProcesses children;
    private String providerUrl;
    private String plannerUrl;
    private Map<String, String> plannerLogin = Map.of();
    private final Link link;
    private final Map<String, String> bootstrapTokens = new HashMap<>();

    private EdgeUp(Path dataDir, Link link) {
        this.dir = dataDir.resolve("edge");
        this.link = link;
        this.modelRoot = dataDir.resolve(TransferUp.DATACENTER);
        this.children = new ChildProcesses(dir);
    }

    /**
     * Where the edge's broker will be and how the cloud's clients log in to it, decided before anything starts so the
     * engine, which boots first, is told it for file triggers; empty (saying why) when the edge is not built.
     */
    static Optional<Link> plan(Path repo, Path dataDir) throws Exception {
        Optional<Path> providerJar = providerJar(repo);
        if (providerJar.isEmpty() || ChildProcesses.runner(repo.resolve("edge-gateway/target"), "continuum-edge-gateway-").isEmpty()
                || !Files.isRegularFile(repo.resolve(MODEL))) {
            say("Edge:           skipped — the inference provider, gateway or demo model is not built "
                    + "(the build fetches the model with npm; is npm installed?)");
            return Optional.empty();
        }
        Path dir = dataDir.resolve("edge");
        Files.createDirectories(dir);
        String secret = secret(dir);
        // unique per data dir: two `up`s on one machine broker do not share sessions or topics
        String root = "continuum-" + Integer.toHexString(dir.toAbsolutePath().toString().hashCode());
        String configured = System.getenv(BROKER_KEY);
        if (configured != null && !configured.isBlank()) {
            String broker = configured.trim();
            if (!answers(broker)) {
                throw new IllegalStateException(BROKER_KEY + "=" + broker + " does not answer");
            }
            say("MQTT broker:    " + broker + " (configured by " + BROKER_KEY + ")");
            return Optional.of(new Link(broker, root, Map.of(), secret, false));
        }
        // the embedded broker admits only the operator and genuine devices, each on its own topics (ADR 0011)
        // the user name is BrokerAccess.OPERATOR (deploy does not link the edge modules)
        Map<String, String> operatorLogin = Map.of("CONTINUUM_MQTT_USERNAME", "_continuum",
                "CONTINUUM_MQTT_PASSWORD", providerPrints(providerJar.get(), secret, "--broker-password"));
        Link link = embedded(ChildProcesses.freePort(), root, operatorLogin, secret);
        say("MQTT broker:    starting embedded Moquette on " + link.broker() + ", login required (set " + BROKER_KEY
                + "=host:port to use yours)");
        return Optional.of(link);
    }

    /**
     * The embedded broker's link: plain MQTT on loopback (127.0.0.1), so logins never leave the machine and no
     * certificate is needed; TLS is for a broker on a network (CONTINUUM_MQTT_BROKER=mqtts://host:port).
     */
    static Link embedded(int port, String root, Map<String, String> operatorLogin, String secret) {
        return new Link("127.0.0.1:" + port, root, operatorLogin, secret, true);
    }

    /**
     * Starts the edge on the broker {@link #plan} chose. {@code repo} is where the runner jars and the model were built.
     */
    static EdgeUp start(Path repo, Path dataDir, Link link, Map<String, String> providerAuth, PlannerAccess planner,
                        InputMoves inputMoves) throws Exception {
        Path plannerJar = repo.resolve("placement/planner-service/target/quarkus-app/quarkus-run.jar");
        if (planner != null && !Files.isRegularFile(plannerJar)) {
            say("Planner:        skipped — " + plannerJar + " is not built; inference is placed inside the provider");
            planner = null;
        }
        Path gatewayJar = ChildProcesses.runner(repo.resolve("edge-gateway/target"), "continuum-edge-gateway-").orElseThrow();
        EdgeUp edge = new EdgeUp(dataDir, link);
        try {
            edge.startAll(providerJar(repo).orElseThrow(), gatewayJar, repo.resolve(MODEL), providerAuth, repo, planner,
                    plannerJar, inputMoves);
            return edge;
        } catch (Exception | Error e) {
            edge.close();
            throw e;
        }
    }

    private static Optional<Path> providerJar(Path repo) throws IOException {
        return ChildProcesses.runner(repo.resolve("action-providers/inference/target"), "continuum-inference-provider-");
    }

    /** The inference provider's action URL, for flows. */
    String providerUrl() {
        return providerUrl;
    }

    /** The placement planner service's URL, or empty when up runs without one. */
    Optional<String> plannerUrl() {
        return Optional.ofNullable(plannerUrl);
    }

    /** The environment that signs a reporter's calls to the planner (empty without a planner). */
    Map<String, String> plannerLogin() {
        return plannerLogin;
    }

    Link link() {
        return link;
    }

    /** The device's bootstrap token: what its storage half logs in to the broker with (ADR 0011). */
    String bootstrapToken(String gateway) {
        return bootstrapTokens.get(gateway);
    }

    /** A gateway's data directory: where its instrument writes and what its {@code file:} input refs name. */
    Path dataDir(String gateway) {
        return dir.resolve(gateway).resolve("data");
    }

    private void startAll(Path providerJar, Path gatewayJar, Path model, Map<String, String> providerAuth, Path repo,
                          PlannerAccess planner, Path plannerJar, InputMoves inputMoves) throws Exception {
        Files.createDirectories(dir);
        // made while the provider starts: the gateways need it at their start
        Optional<Path> trainer = TrainingUp.runnerJar(repo);
        CompletableFuture<Optional<Path>> demoModel = CompletableFuture.supplyAsync(() -> trainer.map(jar -> {
            try {
                return TrainingUp.baselineModel(jar, dir.resolve("demo-model-v0"));
            } catch (Exception e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        }));
        String secret = link.secret();
        String broker = link.broker();
        String root = link.topicRoot();
        List<String> providerArgs = new ArrayList<>();
        if (link.embedded()) {
            providerArgs.add("--embedded-broker");
        }
        int port = ChildProcesses.freePort();
        providerUrl = "http://127.0.0.1:" + port + "/providers/inference";
        providerArgs.addAll(List.of("--port", String.valueOf(port), "--broker", broker, "--topic-root", root,
                "--client-id", root + "-inference", "--state-dir", dir.resolve("provider").toString(),
                // models a flow deploys come from the datacenter endpoint (TransferUp), fetched by the gateways from here
                "--model-root", Files.createDirectories(modelRoot).toString(), "--public-url", "http://127.0.0.1:" + port));
        Map<String, String> env = new HashMap<>(providerAuth);
        env.put("CONTINUUM_EDGE_SECRET", secret);
        if (planner != null) {
            plannerUrl = planner.url();
            providerArgs.addAll(List.of("--planner", plannerUrl, "--data-endpoint", "datacenter"));
            plannerLogin = Map.of("CONTINUUM_AUTH_ISSUER", planner.issuer(), "CONTINUUM_PLANNER_CLIENT_ID", planner.clientId(),
                    "CONTINUUM_PLANNER_CLIENT_SECRET", planner.clientSecret());
            env.putAll(plannerLogin);
        }
        if (inputMoves != null) {
            // a job placed away from its input has the file moved there first; every site's storage is the endpoint
            // named like it (the pool's is the datacenter endpoint's directory, TransferUp)
            providerArgs.addAll(List.of("--transfer-url", inputMoves.transferUrl()));
            env.putAll(inputMoves.login());
        }
        Process provider = children.launch("inference-provider", providerJar, providerArgs, env);
        awaitHealth(provider, 0);
        say("Inference:      " + providerUrl + " (actions kept in " + dir.resolve("provider") + ")");
        // the planner boots (Quarkus, Flyway) while the gateways start; it needs the broker the provider hosts
        Process plannerProcess = planner == null ? null : startPlanner(plannerJar, planner, broker, root, secret);

        Optional<Path> demo;
        try {
            demo = demoModel.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw e.getCause() instanceof IllegalStateException ise ? ise : new IllegalStateException(e.getCause());
        }
        for (String id : GATEWAYS) {
            List<String> models = new ArrayList<>(List.of("--model", "ocr-cls@1=" + model));
            demo.ifPresent(m -> models.addAll(List.of("--model", DEMO_MODEL + "@0=" + m)));
            startGateway(providerJar, gatewayJar, secret, broker, root, id, dataDir(id), "edge", models);
        }
        startGateway(providerJar, gatewayJar, secret, broker, root, POOL, poolDataDir(), "datacenter",
                List.of("--model", "ocr-cls@1=" + model));
        awaitHealth(provider, GATEWAYS.size() + 1);
        say("Gateways:       " + String.join(", ", GATEWAYS) + " online with model ocr-cls@1"
                + (demo.isPresent() ? " and " + DEMO_MODEL + "@0" : "") + " (state and logs in " + dir + ")");
        say("Datacenter:     inference pool " + POOL + " online with model ocr-cls@1 (the gateway runtime in the "
                + "datacenter role; its storage is the datacenter endpoint's " + poolDataDir() + ")");
        if (plannerProcess != null) {
            URI ready = URI.create(plannerUrl + "/q/health/ready");
            children.await(plannerProcess, "planner", "the placement planner to start", Duration.ofSeconds(120), () ->
                    HTTP.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
            say("Planner:        " + plannerUrl + " places every inference job (decisions in PostgreSQL; "
                    + "./continuum cli placement explain RUN_ID --planner " + plannerUrl + ")");
        } else {
            say("Planner:        none (sign-in is off, and the planner takes tokens only): the provider places jobs itself");
        }
    }

    /** The datacenter pool's data directory: the {@code datacenter} endpoint's directory, where transfers deliver. */
    Path poolDataDir() {
        return dir.getParent().resolve("datacenter");
    }

    private void startGateway(Path providerJar, Path gatewayJar, String secret, String broker, String root,
                              String id, Path data, String role, List<String> models) throws Exception {
        Path frame = data.resolve(EXAMPLE_FRAME);
        Files.createDirectories(frame.getParent());
        Files.writeString(frame, exampleFrame());
        String token = providerPrints(providerJar, secret, "--bootstrap-token", id);
        bootstrapTokens.put(id, token);
        List<String> args = new ArrayList<>(List.of("--device-id", id, "--broker", broker, "--topic-root", root,
                "--state-dir", dir.resolve(id).toString(), "--data-dir", data.toString(), "--role", role));
        args.addAll(models);
        // one service, each gateway an instance of it
        Map<String, String> env = new HashMap<>(ChildTraces.instanceOf("continuum-edge-gateway", id, System.getenv()));
        env.put("CONTINUUM_BOOTSTRAP_TOKEN", token); // in the environment, not on a command line others can read
        children.launch(id, gatewayJar, args, env);
    }

    /**
     * The planner service: gateways and the pool from the broker, every gateway one 1 Gbit/s, 5 ms link from the
     * pool (loopback here; the figures are what the planner predicts with until transfers measure the link).
     */
    private Process startPlanner(Path jar, PlannerAccess planner, String broker, String root, String secret) throws Exception {
        Path topology = dir.resolve("planner-topology.json");
        Files.writeString(topology, """
                {"sites": [],
                 "endpoints": {"datacenter": "%s"},
                 "edgeLinks": [{"to": "%s", "bandwidthGbps": 1.0, "latencyMs": 5}]}
                """.formatted(POOL, POOL));
        Map<String, String> env = new HashMap<>(planner.db());
        env.put("QUARKUS_HTTP_PORT", plannerUrl.substring(plannerUrl.lastIndexOf(':') + 1));
        env.put("CONTINUUM_AUTH_ISSUER", planner.issuer());
        env.put("CONTINUUM_EDGE_SECRET", secret);
        env.put("CONTINUUM_PLACEMENT_TOPOLOGY", topology.toString());
        env.put("CONTINUUM_PLACEMENT_MQTT_BROKER", broker);
        env.put("CONTINUUM_PLACEMENT_MQTT_TOPIC_ROOT", root);
        say("Planner:        starting on " + plannerUrl + " (log in " + dir.resolve("planner.log") + ")");
        return children.launch("planner", jar, List.of(), env);
    }

    /**
     * What the provider jar prints for {@code args} (a bootstrap token, the broker password), derived from the secret.
     * Read from its standard output alone: the JVM writes its own notices (e.g. "Picked up JAVA_TOOL_OPTIONS") to
     * standard error, and a secret must not be mixed with them.
     */
    static String providerPrints(Path providerJar, String secret, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", providerJar.toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("CONTINUUM_EDGE_SECRET", secret);
        Path errors = Files.createTempFile("continuum-up-", ".err");
        try {
            Process p = builder.redirectError(errors.toFile()).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("cannot make " + String.join(" ", args) + ": " + Files.readString(errors).trim());
            }
            if (out.isEmpty() || out.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalStateException("cannot make " + String.join(" ", args)
                        + ": expected one token on standard output, got " + out.lines().count() + " line(s)");
            }
            return out;
        } finally {
            Files.deleteIfExists(errors);
        }
    }

    /** Waits until the provider answers /health with at least {@code devices} gateways online. */
    private void awaitHealth(Process provider, int devices) throws Exception {
        URI health = URI.create(providerUrl.substring(0, providerUrl.indexOf("/providers")) + "/health");
        children.await(provider, "inference-provider", devices == 0 ? "the inference provider to start" : "the gateways to come online",
                Duration.ofSeconds(90), () -> {
                    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString());
                    return r.statusCode() == 200 && JSON.readTree(r.body()).path("devices_online").asInt() >= devices;
                });
    }

    /** The operator secret that signs device credentials: made once per data dir, readable by the owner only. */
    private static String secret(Path dir) throws IOException {
        Path file = dir.resolve("edge-secret");
        if (!Files.exists(file)) {
            byte[] random = new byte[32];
            new SecureRandom().nextBytes(random);
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(file, HexFormat.of().formatHex(random));
        }
        return Files.readString(file).trim();
    }

    /** A deterministic pseudo-image shaped for the classifier (float32[1,3,48,192]) as the gateway reads it. */
    static String exampleFrame() throws IOException {
        Random r = new Random(17);
        float[] v = new float[3 * 48 * 192];
        for (int i = 0; i < v.length; i++) {
            v[i] = r.nextFloat();
        }
        return JSON.writeValueAsString(Map.of("shape", List.of(1, 3, 48, 192), "data", v));
    }

    private static boolean answers(String address) {
        // host:port, or mqtt(s)://host:port (docs/edge.md "Encrypted links")
        String hostPort = address.replaceFirst("^mqtts?://", "").replaceAll("/+$", "");
        int colon = hostPort.lastIndexOf(':');
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1))), 1000);
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static void say(String line) {
        System.out.println(line);
    }

    /** Gateways first (they publish a clean "offline"), the provider and its broker last. */
    @Override
    public void close() {
        children.close();
    }
}
