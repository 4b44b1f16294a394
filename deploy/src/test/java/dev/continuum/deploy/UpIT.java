package dev.continuum.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.auth.oidc.TokenResponse;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's run command on a machine with nothing running: `up` starts a real Keycloak, an embedded
 * PostgreSQL and the engine with sign-in required, an embedded MQTT broker, the inference provider, two
 * gateways and the transfer provider with their storage, runs the example flows as the demo scientist
 * (the second classifies a frame on a gateway with the real ONNX model; the third moves a file the
 * "instrument" dropped on gw-1 to the datacenter directory and classifies it on gw-1, started by a file trigger on
 * gw-1 — the engine takes file events from the broker up starts), and
 * stops everything again. While it is up, the API refuses a call without a token and accepts the
 * scientist's. No log the stack wrote holds a secret or token it used ({@link SecretsInLogs}). Run again on the
 * same data directory, it finds the first start's data and vault key.
 */
class UpIT {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START_LIMIT = Duration.ofMinutes(8);

    @Test
    void shouldStartKeycloakRequireATokenRunTheExampleAsTheScientistAndKeepDataAcrossRestarts(@TempDir Path dataDir)
            throws Exception {
        int apiPort = freePort();
        int keycloakPort = freePort();
        Path firstOutput = dataDir.resolve("up-first.txt");
        Process first = launch(dataDir, firstOutput, apiPort, keycloakPort, false);
        String text;
        SecretsInLogs secrets = new SecretsInLogs();
        int transferPort = -1;
        int plannerPort = -1;
        try {
            text = awaitLine(first, firstOutput, "Continuum is up.");
            assertThat(text).contains("starting Keycloak " + "26.7.3" + " on 127.0.0.1:" + keycloakPort)
                    .contains("Demo users:     scientist / scientist-local-only")
                    .contains("LOCAL USE ONLY")
                    .containsPattern("Run:\\s+[0-9a-f-]{36} started as scientist")
                    .contains("finished: SUCCEEDED")
                    .contains("\"said\" : \"Hello, Continuum!\"")
                    // the edge: embedded broker, two gateways, a frame classified by the real model
                    .containsPattern("Gateways:\\s+gw-1, gw-2 online")
                    .contains("Edge inference example")
                    .containsPattern("\"device\" : \"gw-[12]\"")
                    .contains("\"model_digest\" : \"sha256:");
            assertThat(text).as("the datacenter pool and the planner started; where the edge example ran and why")
                    .containsPattern("Datacenter:\\s+inference pool datacenter online with model ocr-cls@1")
                    .containsPattern("Planner:\\s+http://127\\.0\\.0\\.1:\\d+ places every inference job")
                    .containsPattern("Ran on:\\s+gw-1, placed by the planner service")
                    .containsPattern("  predicted:\\s+\\d+ ms = transfer 0 \\+ queue \\d+ \\+ compute \\d+ ms")
                    .containsPattern("  actual:\\s+\\d+ ms = transfer \\d+ \\+ queue \\d+ \\+ compute \\d+ ms")
                    .containsPattern("  why:\\s+gw-1: predicted \\d+ ms, the fastest of 2 sites that can run ocr-cls@1")
                    .containsPattern("  instead:\\s+datacenter: ruled out|  instead:\\s+datacenter: \\d+ ms = transfer \\d+ ms");
            plannerPort = assertThePlannerLoggedTheEdgeExample(text);
            assertTheWebUiReachesThePlanner(text, "http://127.0.0.1:" + apiPort);
            assertThat(text).as("the instrument example: started by a file trigger on gw-1 when the frame was complete")
                    .containsPattern("File trigger:\\s+[0-9a-f-]{36} starts it for each complete instrument/frame-\\*\\.json on gw-1")
                    .containsPattern("File trigger:\\s+gw-1 reported instrument/frame-0001\\.json complete; it started run [0-9a-f-]{36}");
            assertThat(text).as("the instrument example: transferred with BLAKE3 verification, classified on gw-1")
                    .contains("Instrument to datacenter")
                    .containsPattern("Endpoints:\\s+datacenter = .*owner scientist")
                    .contains("\"checksum_algorithm\" : \"BLAKE3\"")
                    .contains("\"checksum_mismatches\" : 0")
                    .contains("\"device\" : \"gw-1\"");
            // flows run flows: the parent maps the child flow over three samples, a child run each
            assertThat(text).contains("Calibrate every sample")
                    .containsPattern("Child runs:\\s+3 of flow [0-9a-f-]{36}, one per sample: [0-9a-f-]{36}, [0-9a-f-]{36}, [0-9a-f-]{36}");
            assertThat(text.split("finished: SUCCEEDED", -1)).as("all five example runs succeeded").hasSize(6);
            assertRetrainedModelDeployedAndUsed(text, dataDir);
            assertThat(text).as("JVM notices were on stderr all along").contains("Picked up JAVA_TOOL_OPTIONS")
                    .as("a run is watched with the CLI, not an API URL that answers 401")
                    .containsPattern("watch it with: ./continuum cli watch [0-9a-f-]{36}")
                    .as("one line per progress update in a log").doesNotContain("\r");
            Path dropped = dataDir.resolve("edge/gw-1/data/instrument/frame-0001.json");
            Path arrived = dataDir.resolve("datacenter/gw-1/instrument/frame-0001.json");
            assertThat(Files.size(arrived)).as("the dropped file arrived in the datacenter directory").isPositive();
            assertThat(Files.mismatch(dropped, arrived)).as("with identical content").isEqualTo(-1L);
            Matcher transfer = Pattern.compile("Transfer:\\s+(http://\\S+/providers/transfer)").matcher(text);
            assertThat(transfer.find()).as("up printed the transfer provider's URL").isTrue();
            transferPort = URI.create(transfer.group(1)).getPort();
            HttpResponse<String> anonymousLs = HTTP.send(HttpRequest.newBuilder(URI.create(transfer.group(1) + "/ls/run"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"body\":{\"endpoint_id\":\"datacenter\"}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymousLs.statusCode()).as("the transfer provider refuses a call without a token").isEqualTo(401);
            Matcher inference = Pattern.compile("Inference:\\s+(http://\\S+/providers/inference)").matcher(text);
            assertThat(inference.find()).as("up printed the inference provider's URL").isTrue();
            HttpResponse<String> anonymousRun = HTTP.send(HttpRequest.newBuilder(URI.create(inference.group(1) + "/run"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"body\":{\"model\":\"ocr-cls@1\",\"input_ref\":\"file:x\"}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymousRun.statusCode()).as("the inference provider refuses a run without a token").isEqualTo(401);
            HttpResponse<String> anonymousDeploy = HTTP.send(HttpRequest.newBuilder(URI.create(inference.group(1) + "/deploy/run"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"body\":{\"model_path\":\"x.onnx\",\"name\":\"m\",\"version\":\"1\",\"devices\":[\"gw-1\"]}}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertThat(anonymousDeploy.statusCode()).as("model deployment refuses a call without a token").isEqualTo(401);
            Matcher mqtt = Pattern.compile("MQTT broker:\\s+starting embedded Moquette on 127\\.0\\.0\\.1:(\\d+)").matcher(text);
            assertThat(mqtt.find()).as("up printed the embedded broker's port").isTrue();
            assertThat(mqttConnAckCode(Integer.parseInt(mqtt.group(1)))).as("the broker refuses an anonymous MQTT client")
                    .isNotZero();
            String api = "http://127.0.0.1:" + apiPort;
            TokenResponse signIn = new TokenClient(issuer(text)).password(ClientCredentials.publicClient("continuum-cli"),
                    "scientist", "scientist-local-only", "openid");
            String scientist = signIn.accessToken();
            secrets.add("the scientist's access token", scientist);
            secrets.add("the scientist's refresh token", signIn.refreshToken().orElse(null));
            assertBrowserLinks(text, api, scientist);

            HttpResponse<String> anonymous = get(api + "/flows", null);
            assertThat(anonymous.statusCode()).isEqualTo(401);
            assertThat(anonymous.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("problem+json"));

            String token = scientist;
            HttpResponse<String> signedIn = get(api + "/flows", token);
            assertThat(signedIn.statusCode()).isEqualTo(200);
            List<String> titles = new ArrayList<>();
            JSON.readTree(signedIn.body()).path("flows").forEach(f -> titles.add(f.path("title").asText()));
            assertThat(titles).as("the scientist sees the example flow `up` published as her").contains("Hello, Continuum");

            String other = new TokenClient(issuer(text)).password(ClientCredentials.publicClient("continuum-cli"),
                    "scientist2", "scientist2-local-only", "openid").accessToken();
            JsonNode refused = listDatacenterAs(api, other, transfer.group(1));
            assertThat(refused.path("status").asText()).as("scientist2 may not list scientist's datacenter endpoint: " + refused)
                    .isEqualTo("FAILED");
            assertThat(refused.toString()).contains("PermissionDenied");
            secrets.addEnvironmentOf(first.toHandle());
        } finally {
            first.destroy();   // SIGTERM, as Ctrl-C would
            assertThat(first.waitFor(2, TimeUnit.MINUTES)).as("up stops on SIGTERM").isTrue();
        }
        assertThat(listening(keycloakPort)).as("Keycloak stopped with the engine").isFalse();
        assertThat(listening(apiPort)).as("engine stopped").isFalse();
        assertThat(listening(transferPort)).as("transfer provider stopped").isFalse();
        assertThat(listening(plannerPort)).as("planner stopped").isFalse();
        assertNoSecretInTheLogs(dataDir, secrets);
        Path vaultKey = dataDir.resolve("vault.key");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(vaultKey))).isEqualTo("rw-------");
        String key = Files.readString(vaultKey);
        assertThat(Files.isDirectory(dataDir.resolve("postgres"))).isTrue();

        Path secondOutput = dataDir.resolve("up-second.txt");
        Process second = launch(dataDir, secondOutput, freePort(), freePort(), true);
        boolean done = second.waitFor(START_LIMIT.toSeconds(), TimeUnit.SECONDS);
        String again = Files.readString(secondOutput, StandardCharsets.UTF_8);
        System.out.println(again);
        if (!done) {
            second.destroyForcibly();
        }
        assertThat(done).as("second up finished in time").isTrue();
        assertThat(second.exitValue()).as("second up exit code; output:\n" + again).isZero();
        assertThat(again).contains("finished: SUCCEEDED");
        assertThat(exampleFlows(again)).as("the second up updated the examples in place, one flow per title")
                .isEqualTo(exampleFlows(text)).hasSize(6);
        assertThat(Files.readString(vaultKey)).as("the vault key is made once and kept").isEqualTo(key);
    }

    /**
     * Issue 18 D: no log the stack wrote (engine, Keycloak, providers, gateways, their storage halves, planner, each
     * under the data directory) holds a secret it used or a token; a find is named by file, line and origin only.
     */
    private static void assertNoSecretInTheLogs(Path dataDir, SecretsInLogs secrets) throws IOException {
        secrets.addRealmSecrets();
        secrets.addFilesNamed(dataDir, "device-credential");
        secrets.addFilesNamed(dataDir, "edge-secret");
        secrets.addFilesNamed(dataDir, "vault.key");
        assertThat(secrets.origins()).as("the secrets up handed its processes were found")
                .contains("KC_BOOTSTRAP_ADMIN_PASSWORD", "CONTINUUM_AUTH_CLIENT_SECRET", "CONTINUUM_AUTH_VAULT_KEY",
                        "CONTINUUM_EDGE_SECRET", "CONTINUUM_BOOTSTRAP_TOKEN",
                        "CONTINUUM_PLANNER_CLIENT_SECRET", "device-credential", "the scientist's refresh token");
        // the broker's operator password, handed to the engine (CONTINUUM_EDGE_PASSWORD, for file triggers) and to the
        // other cloud clients (CONTINUUM_MQTT_PASSWORD): one secret, named after the first process found holding it,
        // which depends on process ids (they wrap around on a long-running machine)
        assertThat(secrets.origins()).as("the broker's operator password was found")
                .containsAnyOf("CONTINUUM_EDGE_PASSWORD", "CONTINUUM_MQTT_PASSWORD");
        List<Path> logs = SecretsInLogs.logsUnder(dataDir);
        assertThat(logs.stream().map(l -> l.getFileName().toString())).as("the logs searched")
                .contains("engine.log", "keycloak.log", "planner.log", "inference-provider.log", "gw-1.log", "datacenter.log",
                        "transfer-provider.log", "gw-1-storage.log", "training-provider.log");
        List<String> found = new ArrayList<>();
        logs.forEach(log -> found.addAll(secrets.foundIn(log)));
        System.out.println("UpIT: searched " + logs.size() + " logs for the secrets up used and for JWTs");
        assertThat(found).as("secrets in the logs (file:line: whose)").isEmpty();
    }

    /**
     * The retrain example: the model the training provider left in the datacenter is what both gateways loaded
     * (its digest, replacing the first version they started with) and what classified the sample on gw-1, as
     * class 0 (the sample is the middle of that class).
     */
    private static void assertRetrainedModelDeployedAndUsed(String text, Path dataDir) throws Exception {
        assertThat(text).containsPattern("Training:\\s+http://\\S+/providers/training \\(backend local")
                .contains("Retrain and deploy");
        String run = text.substring(text.indexOf("Retrain and deploy"));
        // the run's result (its output also holds each action's whole status, which repeats these fields)
        String retrain = run.substring(run.indexOf("\"result\" :"), run.indexOf("\"sample\" :"));
        Matcher deployed = Pattern.compile("\"deployed_digest\" : \"(sha256:[0-9a-f]{64})\"").matcher(retrain);
        assertThat(deployed.find()).as("the deployment's digest in the output").isTrue();
        String digest = deployed.group(1);
        Matcher previous = Pattern.compile("\"previous_digest\" : \"(sha256:[0-9a-f]{64})\"").matcher(retrain);
        int gateways = 0;
        while (previous.find()) {
            assertThat(previous.group(1)).as("the gateway's digest changed").isNotEqualTo(digest);
            gateways++;
        }
        assertThat(gateways).as("both gateways had the first version before").isEqualTo(2);
        assertThat(retrain.split("\"changed\" : true", -1)).as("both gateways loaded the new model").hasSize(3);
        Matcher used = Pattern.compile("\"model_digest\" : \"(sha256:[0-9a-f]{64})\"").matcher(retrain);
        assertThat(used.find()).isTrue();
        assertThat(used.group(1)).as("the classification ran with the retrained model").isEqualTo(digest);
        Matcher p = Pattern.compile("\"probabilities\" : \\[\\s*([-0-9.Ee]+),\\s*([-0-9.Ee]+),\\s*([-0-9.Ee]+)").matcher(retrain);
        assertThat(p.find()).as("the prediction's probabilities").isTrue();
        assertThat(Double.parseDouble(p.group(1))).as("the middle of class 0 is class 0")
                .isGreaterThan(Double.parseDouble(p.group(2))).isGreaterThan(Double.parseDouble(p.group(3)));
        Matcher model = Pattern.compile("\"model\" : \"([^\"]+)\"").matcher(retrain);
        assertThat(model.find()).as("the training output's location").isTrue();
        Path file = Path.of(model.group(1)).resolve("model.onnx");
        assertThat(file).startsWith(dataDir.resolve("datacenter/training").toRealPath());
        assertThat("sha256:" + java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(file)))).as("the deployed file is the trained model").isEqualTo(digest);
    }

    /**
     * Each example run's "In the browser:" link names that run on the engine's origin: the page answers, the run it
     * names is the scientist's and succeeded, and (with chromium on the machine) the link opened in a browser signs in
     * on Keycloak's page and shows that run.
     */
    private static void assertBrowserLinks(String text, String api, String token) throws Exception {
        List<String> runs = new ArrayList<>();
        Matcher started = Pattern.compile("Run:\\s+([0-9a-f-]{36}) started").matcher(text);
        while (started.find()) {
            runs.add(started.group(1));
        }
        List<String> links = new ArrayList<>();
        Matcher link = Pattern.compile("In the browser: (\\S+)").matcher(text);
        while (link.find()) {
            links.add(link.group(1));
        }
        assertThat(runs).as("five example runs").hasSize(5);
        assertThat(links).as("one UI link per example run").containsExactlyElementsOf(runs.stream().map(r -> api + "/#/runs/" + r).toList());
        HttpResponse<String> page = get(api + "/", null);
        assertThat(page.statusCode()).as("the UI page answers without a token (it signs in itself)").isEqualTo(200);
        assertThat(page.body()).contains("<div id=\"app\">");
        for (String run : runs) {
            HttpResponse<String> named = get(api + "/runs/" + run, token);
            assertThat(named.statusCode()).as("the run the link names").isEqualTo(200);
            assertThat(JSON.readTree(named.body()).path("status").asText()).isEqualTo("SUCCEEDED");
        }
        UiLink.assertOpensAfterSignIn(links.get(0), "scientist", runs.get(0));
    }

    /**
     * The planner service logged the edge example's inference decision under its run: placed on gw-1, the datacenter
     * pool scored beside it. Returns the planner's port.
     */
    private static int assertThePlannerLoggedTheEdgeExample(String text) throws Exception {
        Matcher planner = Pattern.compile("Planner:\\s+(http://\\S+) places every inference job").matcher(text);
        assertThat(planner.find()).isTrue();
        // the first run started after the edge example's flow was published
        Matcher started = Pattern.compile("Run:\\s+([0-9a-f-]{36}) started").matcher(text);
        assertThat(started.find(Math.max(0, text.indexOf("(Edge inference example)")))).as("the edge example's run").isTrue();
        String scientist = new TokenClient(issuer(text)).password(ClientCredentials.publicClient("continuum-cli"),
                "scientist", "scientist-local-only", "openid").accessToken();
        HttpResponse<String> log = get(planner.group(1) + "/placements?subject=" + started.group(1), scientist);
        assertThat(log.statusCode()).as(log.body()).isEqualTo(200);
        JsonNode decision = JSON.readTree(log.body()).path("placements").path(0);
        assertThat(decision.path("runId").asText()).isEqualTo(started.group(1));
        assertThat(decision.path("site").asText()).isEqualTo("gw-1");
        assertThat(decision.at("/decision/alternatives/0/site").asText()).isEqualTo("datacenter");
        assertThat(get(planner.group(1) + "/placements", null).statusCode()).as("the planner wants a token").isEqualTo(401);
        return URI.create(planner.group(1)).getPort();
    }

    /**
     * The engine up started knows the planner, so the web UI's devices page (through the engine's relay, admin only)
     * shows the gateways, the datacenter pool and the training provider's partitions the planner was told about.
     */
    private static void assertTheWebUiReachesThePlanner(String text, String api) throws Exception {
        String admin = new TokenClient(issuer(text)).password(ClientCredentials.publicClient("continuum-cli"),
                "admin", "admin-local-only", "openid").accessToken();
        HttpResponse<String> inventory = get(api + "/ops/planner/inventory", admin);
        assertThat(inventory.statusCode()).as(inventory.body()).isEqualTo(200);
        JsonNode sites = JSON.readTree(inventory.body()).path("sites");
        List<String> names = new ArrayList<>();
        boolean trainingPartitions = false;
        for (JsonNode site : sites) {
            names.add(site.path("name").asText());
            // the training provider's local backend reports itself as site "local"
            trainingPartitions |= site.path("name").asText().equals("local") && !site.path("partitions").isEmpty();
        }
        assertThat(names).as(inventory.body()).contains("gw-1", "gw-2", "datacenter");
        assertThat(trainingPartitions).as("the training provider reported its partitions: " + inventory.body()).isTrue();
    }

    /** Runs a one-state flow that lists the datacenter endpoint, as the owner of {@code token}; the run at its end. */
    private static JsonNode listDatacenterAs(String api, String token, String transferUrl) throws Exception {
        String flow = """
                {"title": "list the datacenter", "definition": {"StartAt": "List", "States": {
                  "List": {"Type": "Action", "ActionUrl": "%s/ls", "Parameters": {"endpoint_id": "datacenter"},
                           "ResultPath": "$.listed", "End": true}}}}""".formatted(transferUrl);
        String flowId = JSON.readTree(post(api + "/flows", flow, token).body()).path("id").asText();
        String runId = JSON.readTree(post(api + "/flows/" + flowId + "/run", "{\"body\":{}}", token).body()).path("run_id").asText();
        try {
            return Awaitility.await("run " + runId + " leaves ACTIVE").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                    .until(() -> JSON.readTree(get(api + "/runs/" + runId, token).body()),
                            run -> !run.path("status").asText().equals("ACTIVE"));
        } catch (ConditionTimeoutException stillActive) {
            return JSON.readTree(get(api + "/runs/" + runId, token).body()); // the caller's assertion says what it is
        }
    }

    /** Example title → flow id, from up's "Example flow:" lines; a title published twice keeps both ids. */
    private static Map<String, List<String>> exampleFlows(String upOutput) {
        Map<String, List<String>> flows = new TreeMap<>();
        Matcher line = Pattern.compile("Example flow:\\s+([0-9a-f-]{36}) \\(([^,)]+)").matcher(upOutput);
        while (line.find()) {
            flows.computeIfAbsent(line.group(2), title -> new ArrayList<>()).add(line.group(1));
        }
        return flows;
    }

    private static HttpResponse<String> post(String url, String body, String token) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("POST " + url + ": " + response.body()).isEqualTo(201);
        return response;
    }

    private static Process launch(Path dataDir, Path output, int apiPort, int keycloakPort, boolean exit) throws IOException {
        Path repo = Path.of("").toAbsolutePath().getParent();
        Path runner;
        try (var files = Files.list(Path.of("target"))) {
            runner = files.filter(p -> p.toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("deploy runner jar is not built"));
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", runner.toAbsolutePath().toString(), "--port", String.valueOf(apiPort),
                "--keycloak-port", String.valueOf(keycloakPort), "--data-dir", dataDir.toString()));
        if (exit) {
            command.add("--exit");
        }
        ProcessBuilder builder = new ProcessBuilder(command).directory(repo.toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        // A developer's own settings must not turn this into a test of something else.
        builder.environment().remove("CONTINUUM_AUTH_ISSUER");
        builder.environment().remove("CONTINUUM_AUTH_ENABLED");
        builder.environment().remove("CONTINUUM_DB_HOST");
        // As a user's shell may have it: every JVM `up` starts then writes "Picked up JAVA_TOOL_OPTIONS" to stderr,
        // which must not reach a gateway's secret. (Not a continuum.* key: the engine refuses unknown ones.)
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Dfile.encoding=UTF-8");
        Process up = builder.start();
        up.getOutputStream().close();
        return up;
    }

    private static String awaitLine(Process up, Path output, String line) throws Exception {
        try {
            String text = Awaitility.await("up prints '" + line + "'").atMost(START_LIMIT).pollInterval(Duration.ofMillis(500))
                    .until(() -> {
                        String sofar = Files.readString(output, StandardCharsets.UTF_8);
                        if (!sofar.contains(line) && !up.isAlive()) {
                            throw new AssertionError("up exited with " + up.exitValue() + " before '" + line + "':\n" + sofar);
                        }
                        return sofar;
                    }, sofar -> sofar.contains(line));
            System.out.println(text);
            return text;
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("no '" + line + "' within " + START_LIMIT + ":\n" + Files.readString(output), e);
        }
    }

    private static String issuer(String upOutput) {
        Matcher m = Pattern.compile("Issuer:\\s+(\\S+)").matcher(upOutput);
        assertThat(m.find()).as("up prints the issuer").isTrue();
        return m.group(1);
    }

    private static HttpResponse<String> get(String url, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The CONNACK return code the broker answers an anonymous MQTT 3.1.1 CONNECT (client id "anon") with:
     * 0 accepted, 4 bad user name or password, 5 not authorized.
     */
    private static int mqttConnAckCode(int port) throws IOException {
        byte[] connect = {0x10, 16, 0, 4, 'M', 'Q', 'T', 'T', 4, 0x02, 0, 30, 0, 4, 'a', 'n', 'o', 'n'};
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(connect);
            byte[] connAck = s.getInputStream().readNBytes(4);
            assertThat(connAck).as("a CONNACK").hasSize(4).startsWith((byte) 0x20, (byte) 2);
            return connAck[3];
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
