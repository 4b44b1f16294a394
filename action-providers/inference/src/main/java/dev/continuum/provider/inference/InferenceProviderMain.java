package dev.continuum.provider.inference;

import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.edge.broker.BrokerAccess;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.PemKeyPair;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.fleet.identity.RevocationLog;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.ClientOptions;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.client.TransferCarrier;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.ActionStore;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.PostgresActionStore;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.server.ProviderLauncher.Arguments;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar continuum-inference-provider-*-runner.jar --port 8093 [--host 0.0.0.0] --broker 127.0.0.1:1883
 * [--base-path /providers/inference] [--topic-root continuum] [--client-id continuum-inference]
 * [--embedded-broker] [--state-dir DIR] [--planner URL] [--data-endpoint ID]}; the operator secret comes from
 * {@code CONTINUUM_EDGE_SECRET}. With {@code --planner} (or {@code CONTINUUM_PLANNER_URL}) every job is placed by the
 * planner service, which logs the decision, signing with the service account {@code CONTINUUM_PLANNER_CLIENT_ID} /
 * {@code CONTINUUM_PLANNER_CLIENT_SECRET} at {@code CONTINUUM_AUTH_ISSUER}; without it, by the planner's core in
 * process. {@code --data-endpoint} names where inline inputs lie for the planner (e.g. {@code datacenter}).
 * With {@code --transfer-url} (or {@code CONTINUUM_TRANSFER_URL}: the transfer action's URL) a job placed at a site
 * other than where its {@code input_ref} lies has the file moved there first by that transfer provider, signed as
 * {@code CONTINUUM_TRANSFER_CLIENT_ID} / {@code CONTINUUM_TRANSFER_CLIENT_SECRET}; {@code --transfer-endpoints
 * site=endpoint,...} (or {@code CONTINUUM_TRANSFER_ENDPOINTS}) names the transfer endpoint serving a site's data directory
 * when it is not named like the site.
 * With {@code --state-dir} actions and device revocations are kept on disk there and survive a restart;
 * without it, in memory. With {@code CONTINUUM_INFERENCE_DB_URL} actions are kept in PostgreSQL instead, and several
 * instances (each with its own {@code --client-id}) share them: any instance answers for any action, and the actions of
 * an instance that died are adopted by another when its lease runs out (ADR 0027). {@code --state-dir DIR --revoke-device ID} (or {@code --reinstate-device ID})
 * records a revocation for the provider running on DIR and exits.
 * {@code --bootstrap-token DEVICE} prints the bootstrap token to install on that device and exits;
 * {@code --broker-password} prints the operator's MQTT password (user {@value BrokerAccess#OPERATOR}) and exits.
 *
 * <p>The embedded broker admits only the operator and devices with a genuine credential or bootstrap token,
 * each confined to its own topics (ADR 0011); the provider logs in to it as the operator. Against another
 * broker it logs in with {@code --mqtt-username}/{@code CONTINUUM_MQTT_USERNAME} and
 * {@code CONTINUUM_MQTT_PASSWORD} when set, else anonymously.
 */
public final class InferenceProviderMain {

    private static final String USAGE = """
            usage: continuum-inference-provider [--port 8093] [--host 0.0.0.0] [--broker 127.0.0.1:1883|mqtts://HOST:PORT]
                   [--broker-ca CA.crt] [--broker-tls-cert tls.crt --broker-tls-key tls.key] [--broker-listen-host 127.0.0.1]
                   [--base-path /providers/inference] [--topic-root continuum] [--client-id continuum-inference]
                   [--embedded-broker] [--mqtt-username U] [--state-dir DIR] [--planner URL] [--data-endpoint ID]
                   [--transfer-url URL [--transfer-endpoints dc-pool=datacenter,...]]
                   [--model-root DIR [--public-url http://HOST:PORT] [--deploy-roles continuum-admin,continuum-model-deployer]]
                   | --state-dir DIR (--revoke-device ID | --reinstate-device ID)
                   | --bootstrap-token DEVICE | --broker-password
              serves inference at http://HOST:PORT/BASE; CONTINUUM_EDGE_SECRET signs device credentials;
              --broker mqtts://HOST:PORT: MQTT over TLS trusting --broker-ca (CONTINUUM_MQTT_CA_FILE; neither: the
              JVM's trust store); with --embedded-broker it then listens with TLS only, from --broker-tls-cert and
              --broker-tls-key (PEM), on --broker-listen-host (default 127.0.0.1);
              --planner (CONTINUUM_PLANNER_URL): the planner service places every job, signed as
              CONTINUUM_PLANNER_CLIENT_ID/CONTINUUM_PLANNER_CLIENT_SECRET at CONTINUUM_AUTH_ISSUER;
              --transfer-url (CONTINUUM_TRANSFER_URL, the transfer action's URL): an input_ref lying at another
              site than the one chosen is moved there first, signed as CONTINUUM_TRANSFER_CLIENT_ID/_SECRET;
              --transfer-endpoints (CONTINUUM_TRANSFER_ENDPOINTS) names the transfer endpoint of a site's data
              directory (default: the site's name);
              with --model-root, model deployment at http://HOST:PORT/BASE/deploy (files under DIR; gateways
              fetch them from --public-url/model-files/<token>, default http://127.0.0.1:PORT)
            """;

    private InferenceProviderMain() {}

    record Settings(int port, String host, String broker, String basePath, String topicRoot, String clientId,
                    boolean embeddedBroker, String mqttUser, Path stateDir, String revoke, String reinstate,
                    String bootstrapTokenFor, boolean printBrokerPassword, Path modelRoot, String publicUrl,
                    Set<String> deployRoles, String planner, String dataEndpoint, String transferUrl,
                    java.util.Map<String, String> transferEndpoints, MqttLink.Options brokerLink,
                    PemKeyPair brokerServerTls, String brokerListenHost) {}

    public static void main(String[] args) throws Exception {
        Settings s = ProviderLauncher.settingsOrExit(args, USAGE, InferenceProviderMain::parse);
        if (s.revoke() != null || s.reinstate() != null) {
            if (s.stateDir() == null) {
                System.err.println("--revoke-device and --reinstate-device need the provider's --state-dir");
                System.exit(2);
            }
            // the running provider re-reads the log within 2 s
            new RevocationLog(s.stateDir().resolve("revocations")).append(s.revoke() != null ? "device" : "reinstate",
                    Topics.checkId(s.revoke() != null ? s.revoke() : s.reinstate()));
            System.out.println((s.revoke() != null ? "revoked " + s.revoke() : "reinstated " + s.reinstate())
                    + " in " + s.stateDir());
            return;
        }
        String secret = System.getenv("CONTINUUM_EDGE_SECRET");
        if (secret == null || secret.length() < 16) {
            System.err.println("set CONTINUUM_EDGE_SECRET (at least 16 characters): it signs device credentials");
            System.exit(2);
        }
        DeviceCredentials credentials = DeviceCredentials.fromSecret(secret, Clock.systemUTC());
        if (s.bootstrapTokenFor() != null) {
            System.out.println(credentials.bootstrapToken(s.bootstrapTokenFor()));
            return;
        }
        if (s.printBrokerPassword()) {
            System.out.println(DeviceCredentials.brokerPassword(secret));
            return;
        }
        if (s.stateDir() != null) {
            credentials.persistRevocations(new RevocationLog(s.stateDir().resolve("revocations")));
        }
        String host = s.brokerLink().host();
        int brokerPort = s.brokerLink().port();
        Topics topics = new Topics(s.topicRoot());
        String mqttPassword = System.getenv("CONTINUUM_MQTT_PASSWORD");
        MqttLink.Login login = s.mqttUser() != null && mqttPassword != null ? MqttLink.Login.of(s.mqttUser(), mqttPassword) : null;
        Brokers.EmbeddedBroker ownBroker = null;
        if (s.embeddedBroker() && !Brokers.answers(host, brokerPort)) {
            ownBroker = Brokers.EmbeddedBroker.startSecured(new Brokers.Listener(s.brokerListenHost(), s.brokerServerTls()),
                    brokerPort, null, BrokerAccess.forSecret(topics, credentials, secret));
            System.out.println("embedded MQTT broker on " + s.brokerListenHost() + ":" + brokerPort
                    + (s.brokerServerTls() != null ? " (TLS only, certificate " + s.brokerServerTls().certFile() + ")" : "")
                    + " (login required, devices confined to their topics)");
        }
        if (s.embeddedBroker() && login == null) {
            login = MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(secret));
        }
        MqttLink.Login cloudLogin = login;
        Brokers.EmbeddedBroker secured = ownBroker;
        int port = ProviderLauncher.serve("continuum-inference-provider", s.host(), s.port(), (vertx, router) -> {
            EdgeCloud cloud = new EdgeCloud(vertx, host, brokerPort, s.clientId(), cloudLogin, s.brokerLink().tls(), topics,
                    credentials, Clock.systemUTC());
            cloud.start().get(30, TimeUnit.SECONDS);
            vertx.setPeriodic(2000, t -> vertx.executeBlocking(() -> {
                credentials.reloadRevocations();
                if (secured != null) {
                    secured.disconnectDevices(credentials.revokedDevices()); // cut off, and refused when they come back
                }
                return null;
            }, false));
            // CONTINUUM_AUTH_ENABLED=true: only tokens for continuum-provider-inference with scope actions:inference (docs/auth.md).
            CallerResolver callers = JwtCallerResolver.fromEnvironment(System.getenv(), "continuum-provider-inference",
                    "actions:inference");
            ProviderServerOptions options = ProviderServerOptions.of(vertx).withCallerResolver(callers);
            java.util.Optional<ActionStore> shared = sharedStore(s, "inference_actions");
            if (shared.isPresent()) {
                // several instances on one database: any answers for any action, a dead one's are adopted (ADR 0027)
                options = options.withStore(shared.get());
            } else if (s.stateDir() != null) {
                // actions survive a provider restart; unfinished ones are resumed at mount (ADR 0006)
                options = options.withStore(new FileActionStore(s.stateDir().resolve("actions")));
            }
            // before the inference routes: their catch-all under the base path would answer first
            LocalProvider deployment = s.modelRoot() != null ? mountDeployment(router, s, cloud, callers, options) : null;
            LocalProvider inference = ActionProviderServer.mount(router, s.basePath(), new InferenceProvider(cloud.fleet(), cloud.dispatcher(),
                    placement(s.planner(), cloud), Clock.systemUTC(), s.dataEndpoint(), inputMover(vertx, s)), options);
            // the count lets `up` (and operators) wait until gateways have registered and reported in
            router.get("/health").handler(rc -> rc.json(new io.vertx.core.json.JsonObject().put("status", "UP")
                    .put("devices_online", cloud.fleet().usable().size())));
            return () -> {
                // first the providers: moves and waits end without writing, the actions stay for the next start
                inference.close();
                if (deployment != null) {
                    deployment.close();
                }
                cloud.close();
                if (secured != null) {
                    secured.close();
                }
            };
        });
        System.out.println("inference provider on http://127.0.0.1:" + port + s.basePath() + " (broker " + s.broker()
                + (s.planner() != null ? ", placed by the planner at " + s.planner() : "")
                + (s.transferUrl() != null ? ", inputs moved by " + s.transferUrl() : "") + ")");
    }

    /**
     * The actions in PostgreSQL when {@code CONTINUUM_INFERENCE_DB_URL} is set (with {@code _DB_USER}, {@code _DB_PASSWORD},
     * {@code _INSTANCE_ID}, default host:port, and {@code _LEASE_SECONDS}), shared by every instance on that database.
     */
    static java.util.Optional<ActionStore> sharedStore(Settings s, String table) {
        return PostgresActionStore.fromEnvironment(System.getenv(), "CONTINUUM_INFERENCE", table,
                PostgresActionStore.hostInstanceId(s.port())).map(store -> store);
    }

    /** The planner service when one is named (its decisions logged there), else the planner's core in process. */
    static JobPlacement placement(String plannerUrl, EdgeCloud cloud) {
        if (plannerUrl == null || plannerUrl.isBlank()) {
            return new GatewayPlanner(cloud.fleet(), cloud.dispatcher(), Clock.systemUTC());
        }
        java.util.function.Supplier<String> token = ServiceAccountToken.forPlanner(System.getenv())
                .<java.util.function.Supplier<String>>map(t -> t::current).orElse(() -> null);
        PlannerClient client = new PlannerClient(java.net.URI.create(plannerUrl), token);
        try {
            Topics.checkId(cloud.clientId()); // it becomes a topic level (and the request's owner)
        } catch (IllegalArgumentException e) {
            System.err.println("re-placements are polled, not pushed: --client-id " + e.getMessage());
            return new PlannerServicePlacement(client);
        }
        // the planner pushes re-placements to this instance over its own link; another instance adopting a job polls
        PlannerServicePlacement placement = new PlannerServicePlacement(client, cloud.clientId());
        cloud.onReplacement(placement::pushed);
        return placement;
    }

    /**
     * With {@code --transfer-url}: inputs move between sites through that transfer provider, signed as the service
     * account {@code CONTINUUM_TRANSFER_CLIENT_ID}/{@code _SECRET} (scope actions:transfer), or with no token when
     * none is set (a transfer provider without sign-in). Without it, no input is moved.
     */
    static InputMover inputMover(io.vertx.core.Vertx vertx, Settings s) {
        if (s.transferUrl() == null || s.transferUrl().isBlank()) {
            return InputMover.NONE;
        }
        java.util.function.Supplier<String> token = ServiceAccountToken.forTransfer(System.getenv())
                .<java.util.function.Supplier<String>>map(t -> t::current).orElse(() -> null);
        return new InputMover(new TransferCarrier(new ActionProviderClient(vertx, ClientOptions.defaults()), s.transferUrl(),
                token, java.time.Duration.ofSeconds(30)), s.transferEndpoints(), java.time.Duration.ofMillis(200), Clock.systemUTC());
    }

    /**
     * Model deployment at {@code BASE/deploy} with the inference provider's audience and scope, for callers with
     * one of {@code --deploy-roles} when tokens are checked; the files gateways fetch at {@code /model-files}.
     */
    private static LocalProvider mountDeployment(io.vertx.ext.web.Router router, Settings s, EdgeCloud cloud, CallerResolver callers,
                                        ProviderServerOptions options) throws java.io.IOException {
        Path staging = s.stateDir() != null ? s.stateDir().resolve("staged-models")
                : java.nio.file.Files.createTempDirectory("continuum-staged-models");
        String publicUrl = s.publicUrl() != null ? s.publicUrl() : "http://127.0.0.1:" + s.port();
        StagedModels staged = new StagedModels(staging, publicUrl + "/model-files");
        staged.mount(router, "/model-files");
        boolean authOn = "true".equalsIgnoreCase(System.getenv().getOrDefault("CONTINUUM_AUTH_ENABLED", "false"));
        ProviderServerOptions deployOptions = authOn ? options.withCallerResolver(new RoleRequired(callers, s.deployRoles()))
                : options;
        java.util.Optional<ActionStore> shared = sharedStore(s, "inference_deployments");
        if (shared.isPresent()) {
            deployOptions = deployOptions.withStore(shared.get());
        } else if (s.stateDir() != null) {
            deployOptions = deployOptions.withStore(new FileActionStore(s.stateDir().resolve("deployments")));
        }
        LocalProvider mounted = ActionProviderServer.mount(router, s.basePath() + "/deploy", new ModelDeployProvider(
                cloud.fleet(), cloud.dispatcher(), staged, s.modelRoot(), Clock.systemUTC()), deployOptions);
        System.out.println("model deployment from " + s.modelRoot() + " at " + s.basePath() + "/deploy"
                + (authOn ? " (roles " + s.deployRoles() + ")" : ""));
        return mounted;
    }

    /** Returns null when help was asked for. */
    static Settings parse(String[] args) {
        Arguments a = Arguments.parse(args, Set.of("--port", "--host", "--broker", "--base-path", "--topic-root",
                "--client-id", "--bootstrap-token", "--mqtt-username", "--state-dir", "--revoke-device",
                "--reinstate-device", "--model-root", "--public-url", "--deploy-roles", "--planner", "--data-endpoint",
                "--transfer-url", "--transfer-endpoints", "--broker-ca", "--broker-tls-cert", "--broker-tls-key",
                "--broker-listen-host"),
                Set.of("--embedded-broker", "--broker-password"));
        if (a == null) {
            return null;
        }
        String broker = a.text("--broker", "127.0.0.1:1883");
        MqttLink.Tls trust = MqttLink.Tls.fromFlagOrEnvironment(a.text("--broker-ca").orElse(null), "--broker-ca",
                System.getenv());
        MqttLink.Options brokerLink = MqttLink.Options.persistent(broker, a.text("--client-id", "continuum-inference"), trust);
        boolean embedded = a.flag("--embedded-broker");
        PemKeyPair serverTls = null;
        if (a.text("--broker-tls-cert").isPresent() || a.text("--broker-tls-key").isPresent()) {
            if (!embedded) {
                throw new IllegalArgumentException("--broker-tls-cert and --broker-tls-key are for the --embedded-broker");
            }
            serverTls = PemKeyPair.of(a.path("--broker-tls-cert").orElse(null), a.path("--broker-tls-key").orElse(null),
                    "--broker-tls-cert", "--broker-tls-key");
        }
        if (embedded && brokerLink.tls() != null && serverTls == null) {
            throw new IllegalArgumentException("--embedded-broker with --broker " + broker
                    + " listens with TLS: give it --broker-tls-cert and --broker-tls-key");
        }
        if (serverTls != null && brokerLink.tls() == null) {
            throw new IllegalArgumentException("the embedded broker listens with TLS only: write --broker mqtts://" + broker);
        }
        return new Settings(a.port("--port", 8093), a.text("--host", "0.0.0.0"), broker,
                a.basePath("--base-path", "/providers/inference"), a.text("--topic-root", "continuum"),
                a.text("--client-id", "continuum-inference"), a.flag("--embedded-broker"),
                a.text("--mqtt-username").orElse(System.getenv("CONTINUUM_MQTT_USERNAME")), a.path("--state-dir").orElse(null),
                a.text("--revoke-device").orElse(null), a.text("--reinstate-device").orElse(null),
                a.text("--bootstrap-token").orElse(null), a.flag("--broker-password"), a.path("--model-root").orElse(null),
                a.text("--public-url").orElse(null),
                Set.of(a.text("--deploy-roles", "continuum-admin,continuum-model-deployer").split(",")),
                a.text("--planner").orElse(System.getenv("CONTINUUM_PLANNER_URL")), a.text("--data-endpoint").orElse(null),
                a.text("--transfer-url").orElse(System.getenv("CONTINUUM_TRANSFER_URL")),
                InputMover.parseEndpoints(a.text("--transfer-endpoints").orElse(System.getenv("CONTINUUM_TRANSFER_ENDPOINTS"))),
                brokerLink, serverTls, a.text("--broker-listen-host", "127.0.0.1"));
    }
}
