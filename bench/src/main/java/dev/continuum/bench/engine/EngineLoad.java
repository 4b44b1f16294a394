package dev.continuum.bench.engine;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import dev.continuum.bench.measure.DbCost;
import dev.continuum.bench.measure.FiveStepFlow;
import dev.continuum.bench.measure.ProcessCpu;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Load driver for a running engine (issues 3 and 17): publishes the five-step flow, runs it N times with
 * bounded concurrency (or at each concurrency of a sweep), prints completed runs per second, run latency
 * and what each run cost. Prints numbers; asserts nothing about them.
 */
@Command(name = "engine-load", mixinStandardHelpOptions = true,
        description = "Drive N runs of Pass -> Action echo -> Choice -> Action sleep -> Pass through a running engine "
                + "and print completed runs/s, p50/p99 run latency, per-Action overhead and the cost of a run.")
public final class EngineLoad implements Callable<Integer> {

    @Option(names = "--api", defaultValue = "http://127.0.0.1:8080", description = "Engine base URL (default ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--runs", defaultValue = "2000", description = "Measured runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--concurrency", defaultValue = "64", description = "Runs in flight at once, 1..1000 (default ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--warmup", defaultValue = "500", description = "Unmeasured runs first, to warm the JIT and pools (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--sleep-seconds", defaultValue = "0", description = "Seconds the sleep action waits (default ${DEFAULT-VALUE}).")
    BigDecimal sleepSeconds;

    @Option(names = "--poll-ms", defaultValue = "100", description = "How often to list the phase's ACTIVE runs (default ${DEFAULT-VALUE}; each list costs the engine a read and a view of every run in flight).")
    long pollMillis;

    @Option(names = "--timeout-s", defaultValue = "600", description = "Give up on a phase after this long (default ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @Option(names = "--give-up-s", defaultValue = "60", description = "A run still ACTIVE after this long stops holding a slot and is reported as ACTIVE (default ${DEFAULT-VALUE}).")
    long giveUpSeconds;

    @Option(names = "--token", description = "Bearer token sent as is (it expires, after 5 min in the local realm: "
            + "for longer runs use a service account, CONTINUUM_CLIENT_ID and CONTINUUM_CLIENT_SECRET).")
    String token;

    @Option(names = "--issuer", defaultValue = "${env:CONTINUUM_AUTH_ISSUER:-http://127.0.0.1:8180/realms/continuum}",
            description = "Identity provider for the service account in CONTINUUM_CLIENT_ID / CONTINUUM_CLIENT_SECRET (default ${DEFAULT-VALUE}).")
    String issuer;

    @Option(names = "--sweep", arity = "0..1", split = ",", fallbackValue = "1,2,4,8,16,32,64,128,256",
            description = "Measure --runs runs at each of these concurrencies (default 1,2,4,...,256) and print one table row each.")
    List<Integer> sweep;

    @Option(names = "--pg-db", description = "The engine's database (PostgreSQL on this machine): also print commits, rows written "
            + "and PostgreSQL backend CPU per run.")
    String pgDatabase;

    @Option(names = "--stats-settle-ms", defaultValue = "11000", description = "Wait before each PostgreSQL statistics reading: "
            + "idle backends publish their counters up to 10 s late (default ${DEFAULT-VALUE}).")
    long statsSettleMillis;

    @Option(names = "--engine-pid", description = "Engine process id (same machine): also print the engine's CPU time per run.")
    Long enginePid;

    @Override
    public Integer call() throws Exception {
        List<Integer> levels = sweep == null || sweep.isEmpty() ? List.of(concurrency) : sweep;
        for (int level : levels) {
            if (level < 1 || level > 1000) {
                throw new CommandLine.ParameterException(new CommandLine(this), "concurrency must be between 1 and 1000, not " + level);
            }
        }
        LoadDriverClient engine = new LoadDriverClient(api, bearer());
        LoadDriver driver = new LoadDriver(engine, Duration.ofMillis(pollMillis), Duration.ofSeconds(timeoutSeconds),
                Duration.ofSeconds(giveUpSeconds));
        Optional<DbCost> db = DbCost.of(pgDatabase, Duration.ofMillis(statsSettleMillis));
        String flowId = engine.publishFlow("bench: five-step flow", FiveStepFlow.definition(api, sleepSeconds));
        String tag = UUID.randomUUID().toString().substring(0, 8);
        if (warmup > 0) {
            LoadDriver.Phase warm = driver.drive(flowId, warmup, levels.getFirst(), "bench-warmup-" + tag);
            System.out.printf("warmup          %d runs in %.2f s%n", warmup, warm.wallTime().toNanos() / 1e9);
        }
        if (sweep != null && !sweep.isEmpty()) {
            System.out.print(LoadReport.SWEEP_HEADER);
        }
        boolean allSucceeded = true;
        Optional<DbCost.Reading> dbBefore = read(db);
        for (int level : levels) {
            Optional<Duration> cpuBefore = engineCpu();
            Optional<Duration> driverBefore = ProcessCpu.used(ProcessHandle.current().pid());
            LoadDriver.Phase measured = driver.drive(flowId, runs, level, "bench-" + tag + "-c" + level);
            Optional<Duration> cpuAfter = engineCpu();
            Optional<Duration> driverAfter = ProcessCpu.used(ProcessHandle.current().pid());
            Optional<DbCost.Reading> dbAfter = read(db); // before the read-back, whose queries are not the runs' cost
            List<RunTiming> timings = driver.timings(measured.runIds(), 8);
            Optional<Duration> cpu = cpuBefore.flatMap(b -> cpuAfter.map(a -> a.minus(b)));
            Optional<DbCost.Delta> dbDelta = dbBefore.flatMap(b -> dbAfter.map(a -> a.since(b)));
            LoadReport report = new LoadReport(level, sleepSeconds, measured.wallTime(), timings, cpu, dbDelta);
            System.out.print(sweep != null && !sweep.isEmpty() ? report.sweepRow() : report.table());
            if (sweep == null || sweep.isEmpty()) {
                // The driver shares the machine's cores with the engine and PostgreSQL: its cost bounds what runs/s can show.
                driverBefore.flatMap(b -> driverAfter.map(a -> a.minus(b))).ifPresent(d -> System.out.printf(
                        "%-22s%.2f ms per run (this process: starts, list polls; not the engine's cost)%n", "load driver CPU",
                        d.toNanos() / 1e6 / Math.max(1, report.statuses().values().stream().mapToLong(Long::longValue).sum())));
            }
            allSucceeded &= report.statuses().keySet().stream().allMatch("SUCCEEDED"::equals);
            dbBefore = read(db);
        }
        return allSucceeded ? 0 : 1;
    }

    private static Optional<DbCost.Reading> read(Optional<DbCost> db) throws InterruptedException {
        return db.isPresent() ? Optional.of(db.get().read()) : Optional.empty();
    }

    /** --token, else a renewed service-account token when CONTINUUM_CLIENT_ID/SECRET are set, else none (auth off). */
    private Supplier<Optional<String>> bearer() {
        if (token != null && !token.isBlank()) {
            return () -> Optional.of(token);
        }
        String id = System.getenv("CONTINUUM_CLIENT_ID");
        String secret = System.getenv("CONTINUUM_CLIENT_SECRET");
        if (id == null || id.isBlank() || secret == null || secret.isBlank()) {
            return Optional::empty;
        }
        ServiceAccountToken account = new ServiceAccountToken(new TokenClient(issuer),
                ClientCredentials.confidential(id, secret), Clock.systemUTC());
        return () -> Optional.of(account.current());
    }

    private Optional<Duration> engineCpu() {
        return enginePid == null ? Optional.empty() : ProcessCpu.used(enginePid);
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new EngineLoad())
                .setExecutionExceptionHandler((failure, line, parsed) -> {
                    // A refused or unreachable engine is the user's to fix: one line, no stack trace.
                    line.getErr().println("engine-load: " + failure.getMessage());
                    return 2;
                })
                .execute(args));
    }
}
