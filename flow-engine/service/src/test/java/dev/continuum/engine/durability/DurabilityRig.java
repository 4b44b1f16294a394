package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.support.PostgresResource;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real processes for one durability test: a fresh PostgreSQL database (the machine's, else an
 * embedded one), the built-in providers in their own JVM writing an effects log, and engine
 * processes started from the packaged jar. Providers outlive engines, as they would in production.
 */
final class DurabilityRig implements AutoCloseable {

    /** Short, so a run leased by a killed engine is taken over within seconds. */
    static final String LEASE = "3s";
    private static final String PROVIDER_RUNNER = "action-providers/builtin/target/continuum-builtin-providers-0.1.0-SNAPSHOT-runner.jar";
    private static final String PROVIDER_MAIN = "dev.continuum.provider.builtin.BuiltinProvidersMain";
    private static final List<String> CHILD_JVM = List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1");
    /** How long a process may take to serve: a loaded machine (load 50 on two cores) needs more than the default. */
    private static final Duration START_WITHIN = Duration.ofSeconds(Long.getLong("continuum.durability.start-seconds", 120));
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final String name;
    private final Path workDir;
    private Map<String, String> database;
    private final Path engineJar;
    private final ChildProcess provider;
    private final int providerPort;
    private final EffectsLog effects;
    private final List<EngineInstance> engines = new ArrayList<>();
    private final Map<String, Integer> starts = new HashMap<>();
    private final List<String> engineProperties = new ArrayList<>();
    private final List<String> engineJvmOptions = new ArrayList<>();
    private final Instant began = Instant.now();

    private DurabilityRig(String name, Path workDir, Map<String, String> database, Path engineJar, ChildProcess provider,
                          int providerPort, EffectsLog effects) {
        this.name = name;
        this.workDir = workDir;
        this.database = database;
        this.engineJar = engineJar;
        this.provider = provider;
        this.providerPort = providerPort;
        this.effects = effects;
    }

    static DurabilityRig create(String name) {
        return create(name, PostgresResource.connect());
    }

    /** As {@link #create(String)}, on the given database (e.g. an {@link OwnPostgres} a test restarts). */
    static DurabilityRig create(String name, Map<String, String> database) {
        Path moduleDir = Path.of(System.getProperty("user.dir"));
        Path engineJar = moduleDir.resolve(System.getProperty("continuum.engine.jar", "target/quarkus-app/quarkus-run.jar"));
        if (!Files.isRegularFile(engineJar)) {
            throw new IllegalStateException("no engine jar at " + engineJar + "; build it first: mvn -pl flow-engine/service package");
        }
        Path workDir = moduleDir.resolve("target/durability/" + name + "-" + System.currentTimeMillis());
        try {
            Files.createDirectories(workDir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        EffectsLog effects = new EffectsLog(workDir.resolve("echo-effects.tsv"));
        int providerPort = freePort();
        List<String> command = new ArrayList<>(List.of(ChildProcess.javaBinary()));
        command.addAll(CHILD_JVM);
        command.addAll(providerLauncher(moduleDir));
        command.addAll(List.of("--port", String.valueOf(providerPort), "--effects-log", effects.file().toString()));
        ChildProcess provider = ChildProcess.start("providers", command, Map.of(), workDir.resolve("providers.log"));
        DurabilityRig rig = new DurabilityRig(name, workDir, database, engineJar, provider, providerPort, effects);
        rig.awaitUp("providers", provider, () -> answers("http://127.0.0.1:" + providerPort + "/health"));
        rig.say("database %s on %s:%s; providers pid %d on port %d; files in %s", database.get("continuum.db.name"),
                database.get("continuum.db.host"), database.get("continuum.db.port"), provider.pid(), providerPort, workDir);
        return rig;
    }

    /** The standalone runner jar when it was built, else the same main class from this test's classpath. */
    private static List<String> providerLauncher(Path moduleDir) {
        for (Path dir = moduleDir; dir != null; dir = dir.getParent()) {
            Path runner = dir.resolve(PROVIDER_RUNNER);
            if (Files.isRegularFile(runner)) {
                return List.of("-jar", runner.toString());
            }
        }
        return List.of("-cp", System.getProperty("java.class.path"), PROVIDER_MAIN);
    }

    String providersUrl() {
        return "http://127.0.0.1:" + providerPort + "/providers";
    }

    EffectsLog effects() {
        return effects;
    }

    /**
     * Engines started from now on, and the rig's own reads, use this database instead (e.g. one restored from a
     * backup); the providers, their effects log and the engines already running stay as they are.
     */
    DurabilityRig useDatabase(Map<String, String> other) {
        this.database = Map.copyOf(other);
        say("from now on database %s on %s:%s", other.get("continuum.db.name"), other.get("continuum.db.host"),
                other.get("continuum.db.port"));
        return this;
    }

    /** System properties every engine started from now on gets, e.g. {@code mp.messaging...=...} to turn a channel on. */
    DurabilityRig withEngineProperties(Map<String, String> properties) {
        properties.forEach((key, value) -> engineProperties.add("-D" + key + "=" + value));
        return this;
    }

    /**
     * Starts every engine from now on from an ahead-of-time cache of the engine's loaded and linked classes (JDK 25,
     * JEP 514), made once per engine jar by a training start that stops cleanly (a JVM writes the cache only at a
     * normal exit, never at SIGKILL). At load ~20 on two cores an engine start took 31-44 s without it and 14 s with
     * it, which is what bounds the kills of the campaign. A stale or unreadable cache only warns: the JVM starts
     * without it. Does nothing on a JDK before 25.
     */
    DurabilityRig withStartCache() {
        if (Runtime.version().feature() < 25) {
            say("JDK %d: no ahead-of-time cache for engine starts (needs 25)", Runtime.version().feature());
            return this;
        }
        Path cache;
        try {
            cache = workDir.getParent().resolve("engine-" + Files.getLastModifiedTime(engineJar).toMillis() + ".aot");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!Files.isRegularFile(cache)) {
            Instant start = Instant.now();
            EngineInstance training = launch("aot-training", freePort(), engineJar, List.of("-XX:AOTCacheOutput=" + cache));
            awaitUp("engine aot-training", training.process(), training.api()::isReady);
            training.process().stop(Duration.ofSeconds(180));
            say("made the engine start cache %s (%s) in %d ms", cache.getFileName(),
                    Files.isRegularFile(cache) ? "written" : "NOT written, starting without it",
                    Duration.between(start, Instant.now()).toMillis());
        }
        if (Files.isRegularFile(cache)) {
            engineJvmOptions.add("-XX:AOTCache=" + cache);
        }
        return this;
    }

    /** Starts engines side by side (they share the two cores, so together is quicker than one by one). */
    List<EngineInstance> startEngines(String... instanceIds) {
        return startEnginesFrom(engineJar, List.of(), instanceIds);
    }

    /**
     * As {@link #startEngines}, from another engine jar (e.g. the previous release's, for an upgrade) with these JVM
     * options besides the rig's; the rig's settings are the same, so the jar must read the same configuration keys.
     */
    List<EngineInstance> startEnginesFrom(Path jar, List<String> jvmOptions, String... instanceIds) {
        List<EngineInstance> started = new ArrayList<>();
        for (String id : instanceIds) {
            started.add(launchFrom(jar, jvmOptions, id));
        }
        started.forEach(this::awaitUp);
        return started;
    }

    /**
     * Starts an engine from the given jar, with these JVM options besides the rig's, without waiting for it to serve
     * ({@link #awaitUp(EngineInstance)}).
     */
    EngineInstance launchFrom(Path jar, List<String> jvmOptions, String instanceId) {
        return launch(instanceId, freePort(), jar, jvmOptions);
    }

    /** The jar engines start from unless told otherwise (this tree's). */
    Path engineJar() {
        return engineJar;
    }

    EngineInstance startEngine(String instanceId) {
        return startEngines(instanceId).get(0);
    }

    /** The same instance id on the same port, as a supervisor (systemd, Kubernetes) would restart it. */
    EngineInstance restart(EngineInstance dead) {
        if (dead.isAlive()) {
            throw new IllegalStateException("engine " + dead.instanceId() + " is still running");
        }
        Instant start = Instant.now();
        EngineInstance engine = relaunch(dead);
        awaitUp(engine);
        say("restarted engine %s (pid %d) in %d ms", engine.instanceId(), engine.process().pid(),
                Duration.between(start, Instant.now()).toMillis());
        return engine;
    }

    /**
     * Starts the dead engine again (same instance id and port) without waiting for it to be ready, so a campaign
     * can go on with the other engine meanwhile; {@link EngineInstance#isReady()} tells when it serves.
     */
    EngineInstance relaunch(EngineInstance dead) {
        if (dead.isAlive()) {
            throw new IllegalStateException("engine " + dead.instanceId() + " is still running");
        }
        return launch(dead.instanceId(), dead.port());
    }

    /**
     * Waits until the engine answers ready (at most {@code -Dcontinuum.durability.start-seconds}, 120 by default; fails
     * at once if its process exits).
     */
    void awaitUp(EngineInstance engine) {
        awaitUp("engine " + engine.instanceId(), engine.process(), engine.api()::isReady);
    }

    private EngineInstance launch(String instanceId, int port) {
        return launch(instanceId, port, engineJar, List.of());
    }

    private EngineInstance launch(String instanceId, int port, Path jar, List<String> extraJvmOptions) {
        int start = starts.merge(instanceId, 1, Integer::sum);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CONTINUUM_DB_HOST", database.get("continuum.db.host"));
        env.put("CONTINUUM_DB_PORT", database.get("continuum.db.port"));
        env.put("CONTINUUM_DB_NAME", database.get("continuum.db.name"));
        env.put("CONTINUUM_DB_USER", database.get("continuum.db.user"));
        env.put("QUARKUS_HTTP_PORT", String.valueOf(port));
        env.put("CONTINUUM_INSTANCE_ID", instanceId);
        env.put("CONTINUUM_RUNS_LEASE_DURATION", LEASE);
        // Push callbacks to a dead engine are lost; a short poll cap lets the polling fallback finish sleeps promptly.
        env.put("CONTINUUM_RUNS_POLL_MAX", "2s");
        env.put("CONTINUUM_PROVIDERS_BUILTIN_ENABLED", "false");
        // These tests are about durability, not identity: every request acts as the local user.
        env.put("CONTINUUM_AUTH_ENABLED", "false");
        List<String> command = new ArrayList<>(List.of(ChildProcess.javaBinary()));
        command.addAll(CHILD_JVM);
        command.addAll(engineJvmOptions);
        command.addAll(extraJvmOptions);
        command.addAll(engineProperties);
        command.addAll(List.of("-jar", jar.toString()));
        ChildProcess process = ChildProcess.start("engine " + instanceId, command, env,
                workDir.resolve("engine-" + instanceId + "-" + start + ".log"));
        EngineInstance engine = new EngineInstance(instanceId, port, process);
        engines.add(engine);
        return engine;
    }

    private void awaitUp(String what, ChildProcess process, BooleanSupplier ready) {
        try {
            await(what + " becomes ready").atMost(START_WITHIN).pollInterval(Duration.ofMillis(100)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException(what + " exited while starting:\n" + process.tail(40));
                }
                return ready.getAsBoolean();
            });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(e.getMessage() + ":\n" + process.tail(40), e);
        }
    }

    /** Waits until every run has finished (any final status); returns how long it took. */
    Duration awaitFinished(EngineApi api, Collection<String> runIds, Duration within) {
        Instant start = Instant.now();
        Set<String> pending = new java.util.LinkedHashSet<>(runIds);
        await(runIds.size() + " runs finish").atMost(within).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            pending.removeIf(runId -> Set.of("SUCCEEDED", "FAILED", "ENDED").contains(api.status(runId)));
            assertThat(pending.size()).as("runs still unfinished, e.g. %s; engine logs are in %s",
                    pending.stream().findFirst().orElse("none"), workDir).isZero();
        });
        return Duration.between(start, Instant.now());
    }

    /** Polls until the condition holds or the time is up; says which and returns whether it held. */
    boolean awaitCondition(String what, Duration within, BooleanSupplier condition) {
        try {
            await(what).atMost(within).pollInterval(Duration.ofMillis(20)).until(condition::getAsBoolean);
            return true;
        } catch (ConditionTimeoutException e) {
            say("gave up waiting for %s after %d s", what, within.toSeconds());
            return false;
        }
    }

    /**
     * Runs whose lease is held right now, by owner. Not part of the API: read only to show that a
     * test really killed an engine while it held leases (the precondition of a takeover).
     */
    Map<String, String> liveLeases() {
        Map<String, String> leases = new LinkedHashMap<>();
        query("SELECT id, lease_owner FROM runs WHERE lease_owner IS NOT NULL AND lease_until > now()",
                rows -> leases.put(rows.getString(1), rows.getString(2)));
        return leases;
    }

    private interface RowReader {
        void read(ResultSet row) throws SQLException;
    }

    private void query(String sql, RowReader reader) {
        try (Connection connection = connect();
             Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                reader.read(rows);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot query the test database: " + e.getMessage(), e);
        }
    }

    private Connection connect() throws SQLException {
        String url = "jdbc:postgresql://" + database.get("continuum.db.host") + ":" + database.get("continuum.db.port") + "/"
                + database.get("continuum.db.name");
        return DriverManager.getConnection(url, database.get("continuum.db.user"), "");
    }

    /**
     * Asks a count again and again on one connection, as fast as the database answers, until it reaches
     * {@code atLeast}; for moments too short for {@link #awaitCondition} (a kill between two commits of one engine).
     * Whether it did.
     */
    boolean awaitCount(String countSql, long atLeast, Duration within) {
        Instant deadline = Instant.now().plus(within);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            while (Instant.now().isBefore(deadline)) {
                try (ResultSet rows = statement.executeQuery(countSql)) {
                    if (rows.next() && rows.getLong(1) >= atLeast) {
                        return true;
                    }
                }
            }
            return false;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot query the test database: " + e.getMessage(), e);
        }
    }

    /**
     * Asks a query again and again on one connection, as {@link #awaitCount} does, until the first column of its rows
     * (as text) satisfies {@code until}; whether it did.
     */
    boolean awaitRows(String sql, java.util.function.Predicate<List<String>> until, Duration within) {
        Instant deadline = Instant.now().plus(within);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            while (Instant.now().isBefore(deadline)) {
                List<String> found = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery(sql)) {
                    while (rows.next()) {
                        found.add(rows.getString(1));
                    }
                }
                if (until.test(found)) {
                    return true;
                }
            }
            return false;
        } catch (SQLException e) {
            throw new IllegalStateException("cannot query the test database: " + e.getMessage(), e);
        }
    }

    /** The single number a query answers (e.g. a count), read from the database so it works while no engine is up. */
    long number(String sql) {
        long[] found = {0};
        query(sql, rows -> found[0] = rows.getLong(1));
        return found[0];
    }

    /** The first column of every row a query answers, as text. */
    List<String> strings(String sql) {
        List<String> found = new ArrayList<>();
        query(sql, rows -> found.add(rows.getString(1)));
        return found;
    }

    /** How many runs are in each status, read from the database so it works while no engine is up. */
    Map<String, Integer> runsByStatus() {
        Map<String, Integer> counts = new java.util.TreeMap<>();
        query("SELECT status, count(*) FROM runs GROUP BY status", rows -> counts.put(rows.getString(1), rows.getInt(2)));
        return counts;
    }

    /** Lines of all engine outputs so far that contain the text (e.g. lost leases), for the story a test prints. */
    long engineLogLines(String containing) {
        try (var files = Files.list(workDir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("engine-")).mapToLong(f -> {
                try (var lines = Files.lines(f)) {
                    return lines.filter(line -> line.contains(containing)).count();
                } catch (IOException | UncheckedIOException e) {
                    return 0;
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Prints what happened, with the seconds since the rig started, so a CI log tells the story. */
    void say(String format, Object... args) {
        double seconds = Duration.between(began, Instant.now()).toMillis() / 1000.0;
        System.out.printf("[%s %6.1fs] %s%n", name, seconds, String.format(format, args));
    }

    /**
     * Starts a round's {@code count} runs of {@code flow} (inputs {@code items(round, i)}) from several clients at once, so
     * that many are mid-call together, until {@code killed} completes; how many starts the engine answered.
     */
    static int startRunsUntilKilled(EngineInstance engine, String flow, int round, int count,
                                    java.util.function.BiFunction<Integer, Integer, ObjectNode> items,
                                    CompletableFuture<Boolean> killed) {
        ExecutorService clients = Executors.newFixedThreadPool(Math.max(1, count / 2));
        try {
            List<Future<Boolean>> starts = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ObjectNode input = items.apply(round, i);
                starts.add(clients.submit(() -> {
                    if (killed.isDone()) {
                        return false;
                    }
                    try {
                        engine.api().startRun(flow, input, "round-" + round);
                        return true;
                    } catch (RuntimeException | AssertionError failure) {
                        try {
                            killed.get(10, TimeUnit.SECONDS); // a start the kill cut off
                            return false;
                        } catch (Exception notKilled) {
                            throw failure;
                        }
                    }
                }));
            }
            int started = 0;
            for (Future<Boolean> start : starts) {
                started += start.get(60, TimeUnit.SECONDS) ? 1 : 0;
            }
            return started;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("starting runs failed: " + e.getMessage(), e);
        } finally {
            clients.shutdownNow();
        }
    }

    /** Paces a scenario (a kill's delay, an outage's length, a provider's slowness); a wait for a condition is awaitCondition. */
    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public void close() {
        engines.stream().filter(EngineInstance::isAlive).forEach(engine -> engine.process().stop());
        provider.stop();
    }

    private static boolean answers(String url) {
        try {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET().build();
            return HTTP.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }
}
