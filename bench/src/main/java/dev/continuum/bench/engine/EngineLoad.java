package dev.continuum.bench.engine;

import dev.continuum.auth.oidc.ClientCredentials;
import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.auth.oidc.TokenClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Load driver for a running engine (issue 3): publishes the five-step flow, runs it N times with
 * bounded concurrency, prints committed transitions per second and run latency. Prints numbers;
 * asserts nothing about them.
 */
@Command(name = "engine-load", mixinStandardHelpOptions = true,
        description = "Drive N runs of Pass -> Action echo -> Choice -> Action sleep -> Pass through a running engine "
                + "and print transitions/s, p50/p99 run latency and per-Action overhead.")
public final class EngineLoad implements Callable<Integer> {

    private static final String COUNTER = "continuum_transitions_total";

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

    @Option(names = "--poll-ms", defaultValue = "50", description = "How often to list the phase's ACTIVE runs (default ${DEFAULT-VALUE}).")
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

    @Option(names = "--engine-pid", description = "Engine process id (same machine): also print the engine's CPU time per run.")
    Long enginePid;

    @Override
    public Integer call() throws Exception {
        if (concurrency < 1 || concurrency > 1000) {
            throw new CommandLine.ParameterException(new CommandLine(this), "--concurrency must be between 1 and 1000");
        }
        EngineClient engine = new EngineClient(api, bearer());
        LoadDriver driver = new LoadDriver(engine, Duration.ofMillis(pollMillis), Duration.ofSeconds(timeoutSeconds),
                Duration.ofSeconds(giveUpSeconds));
        String flowId = engine.publishFlow("bench: five-step flow", FiveStepFlow.definition(api, sleepSeconds));
        String tag = UUID.randomUUID().toString().substring(0, 8);
        if (warmup > 0) {
            LoadDriver.Phase warm = driver.drive(flowId, warmup, concurrency, "bench-warmup-" + tag);
            System.out.printf("warmup          %d runs in %.2f s%n", warmup, warm.wallTime().toNanos() / 1e9);
        }
        OptionalDouble before = PrometheusText.counter(engine.metrics(), COUNTER);
        Optional<Duration> cpuBefore = engineCpu();
        LoadDriver.Phase measured = driver.drive(flowId, runs, concurrency, "bench-" + tag);
        Optional<Duration> cpuAfter = engineCpu();
        OptionalDouble after = PrometheusText.counter(engine.metrics(), COUNTER);
        List<RunTiming> timings = driver.timings(measured.runIds(), 8);
        OptionalDouble delta = before.isPresent() && after.isPresent()
                ? OptionalDouble.of(after.getAsDouble() - before.getAsDouble()) : OptionalDouble.empty();
        Optional<Duration> cpu = cpuBefore.flatMap(b -> cpuAfter.map(a -> a.minus(b)));
        LoadReport report = new LoadReport(concurrency, sleepSeconds, measured.wallTime(), timings, delta, cpu);
        System.out.print(report.table());
        return report.statuses().keySet().stream().allMatch("SUCCEEDED"::equals) ? 0 : 1;
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
