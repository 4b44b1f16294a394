package dev.continuum.deploy;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.TokenClient;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Who signs people in for {@code continuum up}: the Keycloak named by {@code CONTINUUM_AUTH_ISSUER}, or
 * else a real Keycloak started here from the Maven Central distribution with the Continuum realm and
 * its local-only demo users. Decides the engine's auth settings (auth on, issuer, client secret,
 * vault key) and, for the local realm only, can sign the demo scientist in for the example run.
 */
final class LocalIdentity {

    static final String DEMO_USER = "scientist";
    /** Public in the realm file and docs/auth.md; exists only in the Keycloak that {@code up} starts. */
    static final String LOCAL_ENGINE_SECRET = "continuum-engine-local-secret";
    private static final ClientCredentials CLI = ClientCredentials.publicClient("continuum-cli");
    private static final List<String> DEMO_USERS = List.of(
            "scientist / scientist-local-only (continuum-model-deployer)", "scientist2 / scientist2-local-only", "admin / admin-local-only (continuum-admin)");

    /** What the engine is started with, and how to get a token for the example (local realm only). */
    record Setup(Map<String, String> engineEnv, Optional<String> issuer, boolean local) {

        boolean enabled() {
            return issuer.isPresent();
        }

        /**
         * Who owns what {@code up} registers for its user (the transfer endpoints), as providers name
         * callers: the demo scientist of the local realm; with sign-in off, the anonymous caller
         * ({@code local:anonymous}, the SDK's name for it); with another issuer, this machine's account
         * name — providers see a token's {@code preferred_username}, so that is a guess, and up says so.
         */
        String localUser() {
            if (issuer.isEmpty()) {
                return "local:anonymous";
            }
            return local ? DEMO_USER : System.getProperty("user.name");
        }

        /** A fresh access token of the demo scientist (password grant, allowed for continuum-cli in the local realm). */
        Optional<String> demoToken() {
            return local ? issuer.map(i -> new TokenClient(i).password(CLI, DEMO_USER, DEMO_USER + "-local-only", "openid").accessToken())
                    : Optional.empty();
        }
    }

    private LocalIdentity() {}

    /**
     * Starts Keycloak unless an external issuer is configured or auth is switched off, registering it in
     * {@code running} so it stops with the engine. {@code say} receives the progress lines.
     */
    static Setup prepare(Map<String, String> env, Path dataDir, int keycloakPort, List<AutoCloseable> running,
                         Consumer<String> say) throws IOException {
        if ("false".equalsIgnoreCase(env.getOrDefault("CONTINUUM_AUTH_ENABLED", "").trim())) {
            say.accept("Sign-in:        OFF (CONTINUUM_AUTH_ENABLED=false): anyone who can reach the API acts as the local user."
                    + " Keep it on this machine.");
            return new Setup(Map.of("CONTINUUM_AUTH_ENABLED", "false"), Optional.empty(), false);
        }
        Map<String, String> engine = new LinkedHashMap<>();
        engine.put("CONTINUUM_AUTH_ENABLED", "true");
        engine.put("CONTINUUM_AUTH_VAULT_KEY", present(env, "CONTINUUM_AUTH_VAULT_KEY").orElse(VaultKeyFile.loadOrCreate(dataDir)));
        Optional<String> external = present(env, "CONTINUUM_AUTH_ISSUER");
        if (external.isPresent()) {
            say.accept("Sign-in:        " + external.get() + " (configured by CONTINUUM_AUTH_ISSUER)");
            engine.put("CONTINUUM_AUTH_ISSUER", external.get());
            if (present(env, "CONTINUUM_AUTH_CLIENT_SECRET").isEmpty()) {
                say.accept("                note: CONTINUUM_AUTH_CLIENT_SECRET is not set; runs cannot obtain provider tokens without it");
            }
            return new Setup(engine, external, false);
        }
        KeycloakServer keycloak = start(dataDir, keycloakPort, say);
        running.add(keycloak);
        engine.put("CONTINUUM_AUTH_ISSUER", keycloak.issuer());
        engine.put("CONTINUUM_AUTH_CLIENT_SECRET", LOCAL_ENGINE_SECRET);
        // the local realm's trigger service account, so an administrator can bind triggers to it (docs/triggers.md)
        engine.put("CONTINUUM_AUTH_TRIGGER_CLIENT_ID", "continuum-triggers");
        engine.put("CONTINUUM_AUTH_TRIGGER_CLIENT_SECRET", "continuum-triggers-local-secret");
        say.accept("Issuer:         " + keycloak.issuer());
        say.accept("Demo users:     " + String.join(", ", DEMO_USERS));
        say.accept("                LOCAL USE ONLY: these users and passwords are public; they exist only in this Keycloak,");
        say.accept("                which starts afresh from the realm file every time (nothing you change there is kept).");
        String issuerOption = keycloak.issuer().equals("http://127.0.0.1:8180/realms/continuum") ? "" : " --issuer " + keycloak.issuer();
        say.accept("CLI sign-in:    ./continuum cli login" + issuerOption + "   (scripts: CONTINUUM_CLIENT_ID=continuum-instrument"
                + " CONTINUUM_CLIENT_SECRET=continuum-instrument-local-secret)");
        return new Setup(engine, Optional.of(keycloak.issuer()), true);
    }

    private static KeycloakServer start(Path dataDir, int port, Consumer<String> say) {
        if (listening(port)) {
            throw new IllegalStateException("port " + port + " is already in use. If a Keycloak with the Continuum realm runs "
                    + "there, use it: CONTINUUM_AUTH_ISSUER=http://127.0.0.1:" + port + "/realms/continuum; "
                    + "otherwise pick another port with --keycloak-port");
        }
        Path log = dataDir.resolve("keycloak.log");
        say.accept("Sign-in:        starting Keycloak " + KeycloakServer.VERSION + " on 127.0.0.1:" + port
                + " (20-45 s, minutes on a busy machine; log in " + log + ")");
        Instant started = Instant.now();
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "keycloak-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(() -> say.accept("                Keycloak still starting ("
                + Duration.between(started, Instant.now()).toSeconds() + " s) ..."), 15, 15, TimeUnit.SECONDS);
        try {
            KeycloakServer keycloak = KeycloakServer.start(port, log);
            say.accept("                Keycloak ready after " + Duration.between(started, Instant.now()).toSeconds() + " s");
            return keycloak;
        } finally {
            ticker.shutdownNow();
        }
    }

    private static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 300);
            return true;
        } catch (IOException free) {
            return false;
        }
    }

    private static Optional<String> present(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).map(String::trim).filter(v -> !v.isEmpty());
    }
}
