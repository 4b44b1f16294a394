package dev.continuum.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The data half of {@code continuum up}: the transfer provider with a {@code datacenter} directory
 * endpoint under the data dir and each gateway's data directory as a gateway endpoint. A gateway's
 * storage is served over MQTT by the device half ({@code GatewayStorageMain}), one process beside
 * each gateway as on a real device (ADR 0007). Every endpoint belongs to one user. Logs and the
 * provider's state go to {@code <data>/transfer}; {@link #close()} stops what it started.
 */
final class TransferUp implements AutoCloseable {

    static final String DATACENTER = "datacenter";
    /**
     * The local realm's transfer service account, which the inference provider moves inputs as (and the training
     * provider carries checkpoints as); its secret is public and local. A writer of every endpoint here.
     */
    static final String CARRIER = "continuum-checkpoint-carrier";
    static final String STORAGE_MAIN = "dev.continuum.provider.transfer.gateway.GatewayStorageMain";
    static final String STORAGE_SERVICE = "continuum-gateway-storage";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path dir;
    private final Path datacenter;
    private final ChildProcesses children;
    private String providerUrl;

    /** The transfer provider's port, chosen before the edge starts so the inference provider can be told it. */
    private final int port;
    /** Who besides the owner may write to (and read) every endpoint: the input carrier's account, if any. */
    private final List<String> writers;

    private TransferUp(Path dataDir, int port, List<String> writers) {
        this.port = port;
        this.writers = writers;
        this.dir = dataDir.resolve("transfer");
        this.datacenter = dataDir.resolve(DATACENTER);
        this.children = new ChildProcesses(dir);
    }

    /**
     * Starts the provider and the gateways' storage halves, or says why not and returns empty (the rest
     * of the platform works without them).
     */
    static Optional<TransferUp> start(Path repo, Path dataDir, EdgeUp edge, String owner, Map<String, String> providerAuth,
                                      int port, List<String> writers) throws Exception {
        Optional<Path> jar = jar(repo);
        if (jar.isEmpty()) {
            say("Transfer:       skipped — the transfer provider is not built (mvn -B -q install -DskipTests)");
            return Optional.empty();
        }
        TransferUp transfer = new TransferUp(dataDir, port, writers);
        try {
            transfer.startAll(jar.get(), edge, owner, providerAuth);
            return Optional.of(transfer);
        } catch (Exception | Error e) {
            transfer.close();
            throw e;
        }
    }

    /** The transfer provider's runner jar, when it is built. */
    static Optional<Path> jar(Path repo) throws IOException {
        return ChildProcesses.runner(repo.resolve("action-providers/transfer/target"), "continuum-transfer-provider-");
    }

    /** Base of the transfer family's URLs on {@code port}. */
    static String providerUrl(int port) {
        return "http://127.0.0.1:" + port + "/providers/transfer";
    }

    /** Base of the transfer family's action URLs: {@code BASE/transfer}, {@code BASE/ls}, {@code BASE/mkdir}, {@code BASE/delete}. */
    String providerUrl() {
        return providerUrl;
    }

    Path datacenter() {
        return datacenter;
    }

    private void startAll(Path jar, EdgeUp edge, String owner, Map<String, String> providerAuth) throws Exception {
        Files.createDirectories(datacenter);
        Path endpoints = dir.resolve("endpoints.json");
        Files.createDirectories(dir);
        Files.writeString(endpoints, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(endpoints(edge, owner)));
        providerUrl = providerUrl(port);
        Map<String, String> providerEnv = new java.util.HashMap<>(providerAuth);
        providerEnv.putAll(edge.link().operatorLogin()); // the cloud half logs in to the broker as the operator
        List<String> args = new ArrayList<>(List.of("--endpoints", endpoints.toString(),
                "--state", dir.resolve("state").toString(), "--port", String.valueOf(port)));
        if (edge.plannerUrl().isPresent()) {
            // each transfer's measured rate corrects the planner's link model (docs/placement.md)
            args.addAll(List.of("--planner", edge.plannerUrl().get()));
            providerEnv.putAll(edge.plannerLogin());
        }
        // the Vector API module lets the provider hash BLAKE3 on 512-bit lanes, its default then (ADR 0010)
        Process provider = children.launch("transfer-provider", List.of("--add-modules", "jdk.incubator.vector"), jar,
                args, providerEnv);
        // the device halves connect out to the broker, as the gateways do, logging in as their device (ADR 0011)
        List<Process> storage = new ArrayList<>();
        for (String id : EdgeUp.GATEWAYS) {
            // one service, each device's storage half an instance of it (its spans: docs/operations.md "Traces")
            Map<String, String> env = new java.util.HashMap<>(ChildTraces.instanceOf(STORAGE_SERVICE, id, System.getenv()));
            env.put("CONTINUUM_BOOTSTRAP_TOKEN", edge.bootstrapToken(id));
            storage.add(children.launchMain(id + "-storage", jar, STORAGE_MAIN, List.of("--device-id", id,
                    "--root", edge.dataDir(id).toString(), "--broker", edge.link().broker(),
                    "--topic-root", edge.link().topicRoot()), env));
        }
        URI health = URI.create("http://127.0.0.1:" + port + "/health");
        children.await(provider, "transfer-provider", "the transfer provider to start", Duration.ofSeconds(90),
                () -> HTTP.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        for (int i = 0; i < storage.size(); i++) {
            String name = EdgeUp.GATEWAYS.get(i) + "-storage";
            // GatewayStorageMain prints this line once it is connected and subscribed
            children.await(storage.get(i), name, "gateway storage " + EdgeUp.GATEWAYS.get(i) + " to connect",
                    Duration.ofSeconds(90), () -> Files.readString(children.log(name)).contains("serving"));
        }
        say("Transfer:       " + providerUrl + "/{transfer,ls,mkdir,delete} (actions kept in " + dir.resolve("state") + ")");
        say("Endpoints:      " + DATACENTER + " = " + datacenter + "; " + String.join(", ", EdgeUp.GATEWAYS)
                + " = each gateway's data directory, over MQTT; owner " + owner + " (" + endpoints + ")");
    }

    /** The endpoints file the provider reads (docs/transfer.md): written afresh at every start. */
    private ObjectNode endpoints(EdgeUp edge, String owner) {
        ObjectNode doc = JSON.createObjectNode();
        ArrayNode list = doc.putArray("endpoints");
        list.addObject().put("id", DATACENTER).put("type", "directory").put("root", datacenter.toString()).put("owner", owner);
        for (String id : EdgeUp.GATEWAYS) {
            list.addObject().put("id", id).put("type", "gateway").put("device_id", id).put("broker", edge.link().broker())
                    .put("topic_root", edge.link().topicRoot()).put("owner", owner);
        }
        for (com.fasterxml.jackson.databind.JsonNode e : list) {
            writers.forEach(((ObjectNode) e).putArray("writers")::add);
        }
        return doc;
    }

    private static void say(String line) {
        System.out.println(line);
    }

    /** The device halves first, then the provider (before the broker, which {@link EdgeUp} stops later). */
    @Override
    public void close() {
        children.close();
    }
}
