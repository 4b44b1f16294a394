package dev.continuum.auth.keycloak;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A real Keycloak for local use and tests, started from the Maven Central distribution zip
 * ({@code org.keycloak:keycloak-quarkus-dist}) in dev mode — no Docker. The zip is unpacked once
 * into {@code ~/.cache/continuum/keycloak-<version>} and reused; every start gets a home of its own beside it
 * (its own realm import folder and data), uses an in-memory database and imports the Continuum realm, so each run
 * begins from the same known state whatever else runs on the machine.
 *
 * <p>Starting takes 20–45 s on two cores, so tests share one instance per JVM: {@link #shared()}.
 */
public final class KeycloakServer implements AutoCloseable {

    public static final String VERSION = "26.7.3";
    /** System property naming the distribution zip (set by the build for tests). */
    public static final String ZIP_PROPERTY = "continuum.keycloak.zip";
    /** Environment variable naming the distribution zip (an operator's own copy). */
    public static final String ZIP_ENV = "CONTINUUM_KEYCLOAK_ZIP";
    public static final String REALM = "continuum";
    /** Realms imported at start: the Continuum realm and a foreign one whose tokens must be refused. */
    public static final List<String> REALM_RESOURCES = List.of("keycloak/continuum-realm.json", "keycloak/elsewhere-realm.json");

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(Long.getLong("continuum.keycloak.start-timeout-s", 240));
    // Not under "continuum.": the engine's config mapping owns that prefix and rejects unknown keys.
    private static final String SHARED_PORT_PROPERTY = "dev.continuum.auth.keycloak.shared-port";
    private static final String SHARED_PASSWORD_PROPERTY = "dev.continuum.auth.keycloak.shared-admin-password";
    private static KeycloakServer shared;

    private final Process process;
    private final int port;
    private final Path log;
    private final String adminPassword;

    private KeycloakServer(Process process, int port, Path log, String adminPassword) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.adminPassword = adminPassword;
    }

    /**
     * One Keycloak per JVM, started on first use and stopped when the JVM exits. "Per JVM" holds
     * across class loaders too (Quarkus tests load this class once per application restart): the
     * running instance is announced in system properties, which every class loader shares. When
     * {@code CONTINUUM_TEST_KEYCLOAK_PORT} names a port where a Keycloak with the Continuum realm already
     * runs (started by {@link #main}), that one is used instead (bootstrap admin password in
     * {@code CONTINUUM_TEST_KEYCLOAK_ADMIN_PASSWORD}), which saves the start-up time while iterating.
     */
    public static KeycloakServer shared() {
        // System.getProperties() is one object for the whole JVM, unlike this class's static fields.
        synchronized (System.getProperties()) {
            if (shared != null && (shared.process == null || shared.process.isAlive())) {
                return shared;
            }
            String running = System.getenv("CONTINUUM_TEST_KEYCLOAK_PORT");
            if (running != null && !running.isBlank()) {
                shared = new KeycloakServer(null, Integer.parseInt(running.trim()), null,
                        System.getenv().getOrDefault("CONTINUUM_TEST_KEYCLOAK_ADMIN_PASSWORD", ""));
                return shared;
            }
            String announcedPort = System.getProperty(SHARED_PORT_PROPERTY);
            if (announcedPort != null) {
                shared = new KeycloakServer(null, Integer.parseInt(announcedPort), null, System.getProperty(SHARED_PASSWORD_PROPERTY));
                return shared;
            }
            KeycloakServer started = start(freePort());
            Runtime.getRuntime().addShutdownHook(new Thread(started::close, "keycloak-stop"));
            System.setProperty(SHARED_PORT_PROPERTY, String.valueOf(started.port));
            System.setProperty(SHARED_PASSWORD_PROPERTY, started.adminPassword);
            shared = started;
            return shared;
        }
    }

    /** Unpacks (once) and starts Keycloak on {@code port}, returning when the realm answers. */
    public static KeycloakServer start(int port) {
        return start(port, install().resolve("keycloak-" + port + ".log"));
    }

    /**
     * Starts Keycloak on {@code port} writing its output to {@code log} ({@code continuum up} keeps it
     * beside its other data); returns when the Continuum realm answers.
     */
    public static KeycloakServer start(int port, Path log) {
        Path distribution = install();
        try {
            Path home = instanceHome(distribution, port);
            Path imports = Files.createDirectories(home.resolve("data/import"));
            for (String resource : REALM_RESOURCES) {
                copyResource(resource, imports.resolve(Path.of(resource).getFileName().toString()));
            }
            Files.createDirectories(log.toAbsolutePath().getParent());
            String adminPassword = UUID.randomUUID().toString();
            ProcessBuilder builder = new ProcessBuilder(home.resolve("bin/kc.sh").toString(), "start-dev",
                    "--http-port=" + port, "--http-host=127.0.0.1", "--http-management-port=" + freePort(),
                    "--db=dev-mem", "--import-realm", "--cache=local", "--log-level=warn")
                    .directory(home.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.put("KC_BOOTSTRAP_ADMIN_USERNAME", "bootstrap-admin");
            env.put("KC_BOOTSTRAP_ADMIN_PASSWORD", adminPassword);
            env.remove("JAVA_OPTS");
            KeycloakServer server = new KeycloakServer(builder.start(), port, log, adminPassword);
            server.process.onExit().thenRun(() -> {
                try {
                    deleteTree(home);
                } catch (IOException leftBehind) {
                    // the next start on this port clears it
                }
            });
            server.awaitReady();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Keycloak from " + distribution, e);
        }
    }

    /**
     * A home of this start's own beside the shared distribution: {@code kc.sh} copied (Keycloak takes its home from
     * the script's real path), everything else linked, and {@code data/} private. Keycloak imports every realm file
     * in {@code data/import}, so two checkouts starting Keycloak at once would otherwise import each other's realm.
     */
    static Path instanceHome(Path distribution, int port) throws IOException {
        Path home = distribution.resolveSibling(distribution.getFileName() + "-instances").resolve(String.valueOf(port));
        deleteTree(home);
        Files.createDirectories(home.resolve("bin"));
        try (var entries = Files.list(distribution)) {
            for (Path entry : entries.toList()) {
                String name = entry.getFileName().toString();
                if (!name.equals("bin") && !name.equals("data")) {
                    Files.createSymbolicLink(home.resolve(name), entry);
                }
            }
        }
        try (var scripts = Files.list(distribution.resolve("bin"))) {
            for (Path script : scripts.toList()) {
                Path copy = home.resolve("bin").resolve(script.getFileName());
                Files.copy(script, copy, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return home;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        // walk does not follow the links into the shared distribution, so only this start's files go.
        try (var paths = Files.walk(root)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Base URL, e.g. {@code http://127.0.0.1:8180}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    /** The issuer of the Continuum realm's tokens. */
    public String issuer() {
        return issuer(REALM);
    }

    public String issuer(String realm) {
        return baseUrl() + "/realms/" + realm;
    }

    public int port() {
        return port;
    }

    /** Password of the master realm's bootstrap admin (random per start; for admin REST calls in tests). */
    public String adminPassword() {
        return adminPassword;
    }

    public String adminUser() {
        return "bootstrap-admin";
    }

    @Override
    public void close() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(20, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        URI probe = URI.create(issuer() + "/.well-known/openid-configuration");
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Keycloak exited with " + process.exitValue() + " before it was ready; see " + log);
            }
            try {
                HttpResponse<Void> response = http.send(HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.discarding());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for Keycloak", e);
            }
            sleep(Duration.ofMillis(500));
        }
        close();
        throw new IllegalStateException("Keycloak was not ready within " + READY_TIMEOUT.toSeconds() + " s; see " + log);
    }

    /** The unpacked distribution, unpacking the Maven zip the first time. */
    public static synchronized Path install() {
        Path home = cacheDir().resolve("keycloak-" + VERSION);
        if (Files.exists(home.resolve(".unpacked"))) {
            return home;
        }
        Path zip = distributionZip().orElseThrow(() -> new IllegalStateException(
                "Keycloak " + VERSION + " distribution not found: looked at " + String.join(", ", zipCandidates().stream()
                        .map(Path::toString).toList()) + ". Build with `mvn install` (it puts the zip in deploy/target/keycloak),"
                        + " or point " + ZIP_ENV + " at keycloak-quarkus-dist-" + VERSION + ".zip"));
        try {
            Path staging = Files.createDirectories(cacheDir()).resolve("keycloak-" + VERSION + ".unpacking-" + ProcessHandle.current().pid());
            unzip(zip, staging);
            Path unpacked = staging.resolve("keycloak-" + VERSION);
            try (var scripts = Files.list(unpacked.resolve("bin"))) {
                scripts.filter(p -> p.toString().endsWith(".sh")).forEach(p -> p.toFile().setExecutable(true));
            }
            Files.writeString(unpacked.resolve(".unpacked"), VERSION + "\n");
            if (!Files.exists(home)) {
                Files.move(unpacked, home, StandardCopyOption.ATOMIC_MOVE);
            }
            return home;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + zip, e);
        }
    }

    /**
     * The distribution zip: named by {@value #ZIP_PROPERTY} (the build sets it for tests, wherever the local Maven
     * repository is) or {@value #ZIP_ENV}; else {@code keycloak/} beside the running jar (deploy's build copies it
     * there for {@code up}); else the default local Maven repositories.
     */
    public static Optional<Path> distributionZip() {
        return zipCandidates().stream().filter(Files::isRegularFile).findFirst();
    }

    static List<Path> zipCandidates() {
        String fileName = "keycloak-quarkus-dist-" + VERSION + ".zip";
        List<Path> candidates = new ArrayList<>();
        Optional.ofNullable(System.getProperty(ZIP_PROPERTY)).filter(v -> !v.isBlank() && !v.startsWith("${"))
                .map(Path::of).ifPresent(candidates::add);
        Optional.ofNullable(System.getenv(ZIP_ENV)).filter(v -> !v.isBlank()).map(Path::of).ifPresent(candidates::add);
        besideRunningJar().map(dir -> dir.resolve("keycloak").resolve(fileName)).ifPresent(candidates::add);
        Optional.ofNullable(System.getProperty("maven.repo.local")).map(Path::of).ifPresent(candidates::add);
        candidates.add(Path.of(System.getProperty("user.home"), ".m2", "repository"));
        return candidates.stream()
                .map(p -> Files.isDirectory(p) ? p.resolve("org/keycloak/keycloak-quarkus-dist/" + VERSION + "/" + fileName) : p)
                .toList();
    }

    /** The folder of the jar this class was loaded from (deploy's runner jar under {@code up}); empty when run from classes. */
    private static Optional<Path> besideRunningJar() {
        try {
            var source = KeycloakServer.class.getProtectionDomain().getCodeSource();
            if (source == null) {
                return Optional.empty();
            }
            Path location = Path.of(source.getLocation().toURI());
            return Files.isRegularFile(location) ? Optional.ofNullable(location.getParent()) : Optional.empty();
        } catch (java.net.URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Path cacheDir() {
        String configured = System.getenv("CONTINUUM_CACHE_DIR");
        return configured != null && !configured.isBlank() ? Path.of(configured)
                : Path.of(System.getProperty("user.home"), ".cache", "continuum");
    }

    private static void unzip(Path zip, Path target) throws IOException {
        try (ZipFile archive = new ZipFile(zip.toFile())) {
            for (ZipEntry entry : java.util.Collections.list(archive.entries())) {
                Path out = target.resolve(entry.getName()).normalize();
                if (!out.startsWith(target)) {
                    throw new IOException("zip entry escapes the target folder: " + entry.getName());
                }
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                } else {
                    Files.createDirectories(out.getParent());
                    try (InputStream in = archive.getInputStream(entry)) {
                        Files.copy(in, out, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
    }

    private static void copyResource(String resource, Path target) throws IOException {
        try (InputStream in = KeycloakServer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IOException("missing resource " + resource);
            }
            Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Reads a bundled realm file, e.g. to hand to an external Keycloak's import. */
    public static String realmJson(String resource) {
        try (InputStream in = KeycloakServer.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("missing resource " + resource);
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /** Runs Keycloak in the foreground for local use: {@code java -cp continuum-auth.jar dev.continuum.auth.keycloak.KeycloakServer [port]}. */
    public static void main(String[] args) throws InterruptedException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8180;
        KeycloakServer server = start(port);
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        System.out.println("Keycloak ready: issuer " + server.issuer());
        server.process.waitFor();
    }
}
