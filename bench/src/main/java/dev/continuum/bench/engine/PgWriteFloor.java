package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.bench.measure.DbCost;
import dev.continuum.engine.adapters.persistence.RunStatements;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.PoolOptions;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * PostgreSQL's floor for the writes the engine makes per run (issue 17 A). Replays one run's statements exactly as the
 * engine sends them (the engine's own SQL texts, read from {@link RunStatements}; parameters captured from PostgreSQL's
 * statement log of a real run, see {@code floor/engine-run-writes.json}) for many runs on a fresh database with the
 * engine's schema, through the reactive PostgreSQL client, and prints PostgreSQL's backend CPU, commits and rows written per run (DbCost), and
 * this JVM's CPU per run (the client side of the same writes: parameters, encoding, Netty).
 * Modes: {@code serial} (each statement awaited, its own commit, several connections), {@code pipelined} (one
 * connection, up to 256 statements in flight, still one commit per statement) and {@code groupedG} (each statement
 * carries G runs' turns, the engine's group-commit form: one commit per G runs' turn; the lease is kept, so the captured
 * mix loses its release turn, claim and inbox read there). Mixes: {@code captured} (the
 * statement log of one run at concurrency 1: start, four turns, a lease claim and an inbox read) and {@code minimal}
 * (start and the two turns the five states need when each action answers at once). Prints numbers; asserts nothing.
 */
@Command(name = "pg-write-floor", mixinStandardHelpOptions = true,
        description = "Replay the engine's per-run writes against PostgreSQL and print backend CPU, commits and rows per run.")
public final class PgWriteFloor implements Callable<Integer> {

    @Option(names = "--runs", defaultValue = "4000", description = "Measured runs per mode (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", defaultValue = "500", description = "Unmeasured runs per mode first (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--modes", defaultValue = "serial,pipelined,grouped10,grouped50", split = ",",
            description = "serial, pipelined, groupedG (default ${DEFAULT-VALUE}).")
    List<String> modes;

    @Option(names = "--mixes", defaultValue = "captured,minimal", split = ",",
            description = "captured, minimal (default ${DEFAULT-VALUE}); grouped modes keep the lease: no release turn, no claim, no inbox read.")
    List<String> mixes;

    @Option(names = "--connections", defaultValue = "8", description = "Connections in serial mode, one run in flight on each (default ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--in-flight", defaultValue = "64", description = "Runs in flight in pipelined and grouped modes (default ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--migrations", defaultValue = "flow-engine/service/src/main/resources/db/migration",
            description = "The engine's Flyway scripts, applied in version order to the fresh database (default ${DEFAULT-VALUE}).")
    Path migrations;

    @Option(names = "--stats-settle-ms", defaultValue = "11000", description = "Wait before each statistics reading (default ${DEFAULT-VALUE}).")
    long settleMillis;

    @Option(names = "--keep-db", description = "Do not drop the database at the end.")
    boolean keepDb;

    static final UUID FLOW = UUID.fromString("51341324-ae4a-4673-bd2b-676d81369704");
    static final String OWNER = "engine-floor";

    /** One turn as the engine commits it: the state after it and the log entries it adds. */
    record Turn(String name, String state, String status, int logged, String log, boolean active, boolean keepsLease) {}

    /** A run's writes: the start, then its turns in order; {@code claimBeforeLast}: the last turn is a woken one. */
    record Mix(String name, int startLogged, String startState, String startLog, List<Turn> turns, boolean claimBeforeLast) {}

    /** Where one run stands: its id and the updated_at its next turn is based on. */
    static final class RunSlot {
        final UUID id = UUID.randomUUID();
        OffsetDateTime updatedAt;
    }

    private final AtomicInteger refused = new AtomicInteger();

    /** This JVM's CPU: what the reactive client (encoding, Netty, building the parameters) costs per run. */
    private final com.sun.management.OperatingSystemMXBean os =
            (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();

    @Override
    public Integer call() throws Exception {
        JsonNode writes;
        try (InputStream in = PgWriteFloor.class.getResourceAsStream("/floor/engine-run-writes.json")) {
            writes = new ObjectMapper().readTree(in);
        }
        String db = "floor_pg_" + ProcessHandle.current().pid();
        psql("test", "CREATE DATABASE " + db);
        try {
            schema(db);
            Vertx vertx = Vertx.vertx();
            try {
                System.out.printf("pg write floor   database %s, %d runs per row after %d warm-up; captured: %s%n", db, runs, warmup,
                        writes.get("captured").asText());
                System.out.printf("%-10s %-9s %9s %12s %10s %10s %14s %14s%n", "mode", "mix", "runs/s", "statements/run", "commits/run",
                        "rows/run", "PG CPU/run ms", "client ms/run");
                DbCost cost = new DbCost(db, Duration.ofMillis(settleMillis));
                for (String mixName : mixes) {
                    Mix mix = mix(writes, mixName);
                    for (String mode : modes) {
                        measure(vertx, db, cost, mode, mix);
                    }
                }
            } finally {
                vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        } finally {
            if (!keepDb) {
                psql("test", "DROP DATABASE IF EXISTS " + db + " WITH (FORCE)");
            }
        }
        return refused.get() == 0 ? 0 : 1;
    }

    private void measure(Vertx vertx, String db, DbCost cost, String mode, Mix mix) throws Exception {
        int group = mode.startsWith("grouped") ? Integer.parseInt(mode.substring("grouped".length())) : 1;
        boolean pipelined = !mode.equals("serial");
        PgConnectOptions connect = new PgConnectOptions().setHost(env("PGHOST", "127.0.0.1"))
                .setPort(Integer.parseInt(env("PGPORT", "5432"))).setUser(env("PGUSER", "postgres")).setDatabase(db)
                .setCachePreparedStatements(true).setPipeliningLimit(pipelined ? 256 : 1);
        int size = pipelined ? 1 : connections;
        Pool pool = Pool.pool(vertx, connect, new PoolOptions().setMaxSize(size));
        try {
            drive(pool, mode, mix, group, warmup, pipelined ? inFlight : connections);
            DbCost.Reading before = cost.read();
            long clientBefore = os.getProcessCpuTime();
            long wallStart = System.nanoTime();
            int statements = drive(pool, mode, mix, group, runs, pipelined ? inFlight : connections);
            double wall = (System.nanoTime() - wallStart) / 1e9;
            long client = os.getProcessCpuTime() - clientBefore;
            DbCost.Delta delta = cost.read().since(before);
            System.out.printf("%-10s %-9s %9.0f %12.2f %10.2f %10.2f %14.3f %14.3f%n", mode, mix.name(), runs / wall,
                    statements / (double) runs, delta.commits() / (double) runs, delta.rowsWritten() / (double) runs,
                    delta.backendCpu().toNanos() / 1e6 / runs, client / 1e6 / runs);
        } finally {
            pool.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** Writes {@code count} runs, {@code window} in flight (grouped: window / group groups); returns statements sent. */
    private int drive(Pool pool, String mode, Mix mix, int group, int count, int window) throws Exception {
        AtomicInteger statements = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        int lanes = Math.max(1, window / group);
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int lane = 0; lane < lanes; lane++) {
            CompletableFuture<Void> finished = new CompletableFuture<>();
            done.add(finished);
            lane(pool, mix, group, count, next, statements, finished);
        }
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(30, TimeUnit.MINUTES);
        return statements.get();
    }

    /** One lane: takes the next group of runs and writes them start to end, then the next group, until none is left. */
    private void lane(Pool pool, Mix mix, int group, int count, AtomicInteger next, AtomicInteger statements,
                      CompletableFuture<Void> finished) {
        int first = next.getAndAdd(group);
        if (first >= count) {
            finished.complete(null);
            return;
        }
        List<RunSlot> slots = Stream.generate(RunSlot::new).limit(Math.min(group, count - first)).toList();
        Future<Void> chain = group == 1 ? start(pool, slots.getFirst(), mix, statements) : startMany(pool, slots, mix, statements);
        for (int t = 0; t < mix.turns().size(); t++) {
            Turn turn = mix.turns().get(t);
            if (group > 1 && turn.active() && !turn.keepsLease()) {
                continue; // grouped: the lease is kept, so no release turn and no claim before the last turn
            }
            boolean woken = mix.claimBeforeLast() && t == mix.turns().size() - 1 && group == 1;
            chain = chain.compose(v -> woken ? claim(pool, slots.getFirst(), statements) : Future.succeededFuture())
                    .compose(v -> group == 1 ? commit(pool, slots.getFirst(), turn, statements) : commitMany(pool, slots, turn, statements));
        }
        chain.onComplete(result -> {
            if (result.failed()) {
                finished.completeExceptionally(result.cause());
            } else {
                lane(pool, mix, group, count, next, statements, finished);
            }
        });
    }

    private Future<Void> start(Pool pool, RunSlot run, Mix mix, AtomicInteger statements) {
        OffsetDateTime now = now();
        run.updatedAt = now;
        statements.incrementAndGet();
        return pool.preparedQuery(RunStatements.INSERT_ONE).execute(Tuple.from(new Object[]{run.id, FLOW, 1, "local:scientist", "ACTIVE",
                        "floor", "[\"bench\"]", fill(mix.startState(), run), now, OWNER, now.plusSeconds(30), mix.startLogged(), now,
                        null, fill(mix.startLog(), run), "[]", "[]", true}))
                .map(rows -> check(rows, 1, "start"));
    }

    private Future<Void> startMany(Pool pool, List<RunSlot> slots, Mix mix, AtomicInteger statements) {
        OffsetDateTime now = now();
        int n = slots.size();
        StringBuilder log = new StringBuilder("[");
        for (RunSlot run : slots) {
            run.updatedAt = now;
            String entries = fill(mix.startLog(), run);
            log.append(log.length() > 1 ? "," : "").append(entries, 1, entries.length() - 1);
        }
        statements.incrementAndGet();
        return pool.preparedQuery(RunStatements.INSERT_MANY).execute(Tuple.from(new Object[]{
                        slots.stream().map(r -> r.id).toArray(UUID[]::new), filled(n, FLOW, UUID[]::new), filled(n, 1, Integer[]::new),
                        filled(n, "local:scientist", String[]::new), filled(n, "ACTIVE", String[]::new), filled(n, "floor", String[]::new),
                        filled(n, "[\"bench\"]", String[]::new), slots.stream().map(r -> fill(mix.startState(), r)).toArray(String[]::new),
                        filled(n, now, OffsetDateTime[]::new), filled(n, OWNER, String[]::new), filled(n, now.plusSeconds(30), OffsetDateTime[]::new),
                        filled(n, mix.startLogged(), Integer[]::new), filled(n, now, OffsetDateTime[]::new), new OffsetDateTime[n],
                        filled(n, "[]", String[]::new), filled(n, "[]", String[]::new), log.append(']').toString(),
                        filled(n, true, Boolean[]::new)}))
                .map(rows -> check(rows, n, "start of " + n));
    }

    private Future<Void> commit(Pool pool, RunSlot run, Turn turn, AtomicInteger statements) {
        OffsetDateTime now = now();
        OffsetDateTime basedOn = run.updatedAt;
        run.updatedAt = now;
        statements.incrementAndGet();
        return pool.preparedQuery(RunStatements.COMMIT_ONE).execute(Tuple.from(new Object[]{run.id, OWNER, fill(turn.state(), run), turn.status(),
                        turn.logged(), turn.active() ? now.plusMinutes(5) : null, now, turn.keepsLease() ? now.plusSeconds(30) : null,
                        turn.active(), new Long[0], fill(turn.log(), run), basedOn, null}))
                .map(rows -> check(rows, 1, turn.name()));
    }

    private Future<Void> commitMany(Pool pool, List<RunSlot> slots, Turn turn, AtomicInteger statements) {
        OffsetDateTime now = now();
        int n = slots.size();
        OffsetDateTime[] basedOn = new OffsetDateTime[n];
        StringBuilder log = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            RunSlot run = slots.get(i);
            basedOn[i] = run.updatedAt;
            run.updatedAt = now;
            String entries = fill(turn.log(), run);
            if (entries.length() > 2) {
                log.append(log.length() > 1 ? "," : "").append(entries, 1, entries.length() - 1);
            }
        }
        statements.incrementAndGet();
        return pool.preparedQuery(RunStatements.COMMIT_MANY).execute(Tuple.from(new Object[]{
                        slots.stream().map(r -> r.id).toArray(UUID[]::new), filled(n, OWNER, String[]::new), basedOn,
                        slots.stream().map(r -> fill(turn.state(), r)).toArray(String[]::new), filled(n, turn.status(), String[]::new),
                        filled(n, turn.logged(), Integer[]::new), filled(n, turn.active() ? now.plusMinutes(5) : null, OffsetDateTime[]::new),
                        filled(n, now, OffsetDateTime[]::new), filled(n, turn.keepsLease() ? now.plusSeconds(30) : null, OffsetDateTime[]::new),
                        filled(n, turn.active(), Boolean[]::new), new Long[0], log.append(']').toString(), new String[n]}))
                .map(rows -> check(rows, n, turn.name() + " of " + n));
    }

    /** The woken turn's lease claim and inbox read (nothing in the inbox: the push was consumed by then). */
    private Future<Void> claim(Pool pool, RunSlot run, AtomicInteger statements) {
        OffsetDateTime now = now();
        statements.addAndGet(2);
        return pool.preparedQuery(RunStatements.CLAIM_ONE).execute(Tuple.of(run.id, OWNER, now, now.plusSeconds(30)))
                .map(rows -> check(rows, 1, "claim"))
                .compose(v -> pool.preparedQuery(RunStatements.INBOX).execute(Tuple.of(run.id)))
                .mapEmpty();
    }

    private Void check(RowSet<Row> rows, int expected, String what) {
        if (rows.rowCount() != expected) {
            if (refused.getAndIncrement() < 5) {
                System.err.printf("%s: %d rows written, expected %d%n", what, rows.rowCount(), expected);
            }
        }
        return null;
    }

    private static Mix mix(JsonNode writes, String name) {
        JsonNode insert = writes.get("insert");
        List<Turn> all = new ArrayList<>();
        for (JsonNode t : writes.get("turns")) {
            all.add(new Turn(t.get("name").asText(), t.get("state").asText(), t.get("status").asText(), t.get("logged").asInt(),
                    t.get("log").asText(), t.get("active").asBoolean(), t.get("keepsLease").asBoolean()));
        }
        return switch (name) {
            case "captured" -> new Mix(name, insert.get("logged").asInt(), insert.get("state").asText(), insert.get("log").asText(),
                    all, true);
            // each action answers in its start call: the echo's turn, then the sleep's turn that ends the run
            case "minimal" -> new Mix(name, insert.get("logged").asInt(), insert.get("state").asText(), insert.get("log").asText(),
                    List.of(all.getFirst(), all.getLast()), false);
            default -> throw new CommandLine.ParameterException(new CommandLine(new PgWriteFloor()), "unknown mix " + name);
        };
    }

    private static String fill(String template, RunSlot run) {
        return template.replace("{run}", run.id.toString());
    }

    private static <V> V[] filled(int n, V value, java.util.function.IntFunction<V[]> array) {
        V[] values = array.apply(n);
        java.util.Arrays.fill(values, value);
        return values;
    }

    private static OffsetDateTime now() {
        return OffsetDateTime.now(ZoneOffset.UTC).truncatedTo(ChronoUnit.MICROS);
    }

    /** The engine's schema from its Flyway scripts (versioned SQL, in version order) and the one flow the runs belong to. */
    private void schema(String db) throws IOException, InterruptedException {
        List<Path> scripts;
        try (Stream<Path> files = Files.list(migrations)) {
            scripts = files.filter(p -> p.getFileName().toString().matches("V\\d+__.*\\.sql"))
                    .sorted(java.util.Comparator.comparingInt(PgWriteFloor::version))
                    .toList();
        }
        if (scripts.isEmpty()) {
            throw new IllegalStateException("no migration scripts under " + migrations.toAbsolutePath() + " (run from the repository root)");
        }
        for (Path script : scripts) {
            psql(db, Files.readString(script, StandardCharsets.UTF_8));
        }
        psql(db, "INSERT INTO flows (id, owner_id, current_version, title, created_at, updated_at) VALUES ('" + FLOW
                + "', 'local:scientist', 1, 'floor', now(), now()); INSERT INTO flow_versions (flow_id, version, definition, created_at)"
                + " VALUES ('" + FLOW + "', 1, '{}', now())");
    }

    private static int version(Path script) {
        return Integer.parseInt(script.getFileName().toString().substring(1).split("__")[0]);
    }

    private static void psql(String db, String sql) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", db)
                .redirectErrorStream(true).start();
        process.getOutputStream().write(sql.getBytes(StandardCharsets.UTF_8));
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalStateException("psql on " + db + " failed: " + out);
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new PgWriteFloor()).execute(args));
    }
}
