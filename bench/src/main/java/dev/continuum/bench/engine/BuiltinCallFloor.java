package dev.continuum.bench.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.builtin.EchoProvider;
import dev.continuum.provider.builtin.SleepProvider;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * The floor of the bench flow's in-process built-in calls (issue 17 A): per run, echo's run, sleep 0's run and the two
 * releases, through {@link LocalProvider} exactly as the engine's gateway calls it (tokens off), one call after the
 * other. With {@code --worker} the providers say they may block, so each call hops to a Vert.x worker as every call
 * did before they could say they never block. Prints the process's CPU per run (the worker's share included); the
 * gateway's own work (engine classes) is not in it. Asserts only that every action succeeded.
 */
@Command(name = "builtin-call-floor", mixinStandardHelpOptions = true,
        description = "Call echo and sleep 0 in process N times (run + release each) and print process CPU per run.")
public final class BuiltinCallFloor implements Callable<Integer> {

    @Option(names = "--runs", defaultValue = "100000", description = "Measured runs (default ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--warmup", defaultValue = "100000", description = "Unmeasured runs first, for the JIT (default ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--worker", description = "The providers say they may block: every call hops to a worker thread.")
    boolean worker;

    /** The same provider, saying it may block. */
    private record MayBlock(ActionProvider provider) implements ActionProvider {
        @Override
        public ProviderDescription describe() {
            return provider.describe();
        }

        @Override
        public ActionStatus start(ActionRequest request, ActionContext ctx) {
            return provider.start(request, ctx);
        }
    }

    @Override
    public Integer call() {
        Vertx vertx = Vertx.vertx();
        try {
            Router router = Router.router(vertx);
            // released actions kept as the engine keeps its built-ins' (two leases), not the SDK's ten minutes
            ProviderServerOptions options = ProviderServerOptions.of(vertx).withReleasedRetention(Duration.ofSeconds(10));
            ActionProvider echoProvider = new EchoProvider(Optional.empty());
            ActionProvider sleepProvider = new SleepProvider();
            LocalProvider echo = ActionProviderServer.mount(router, "/providers/echo", worker ? new MayBlock(echoProvider) : echoProvider, options);
            LocalProvider sleep = ActionProviderServer.mount(router, "/providers/sleep", worker ? new MayBlock(sleepProvider) : sleepProvider, options);
            for (int i = 0; i < warmup; i++) {
                runOnce(echo, sleep, i);
            }
            var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuBefore = os.getProcessCpuTime();
            long wallBefore = System.nanoTime();
            for (int i = 0; i < runs; i++) {
                runOnce(echo, sleep, warmup + i);
            }
            long wall = System.nanoTime() - wallBefore;
            long cpu = os.getProcessCpuTime() - cpuBefore;
            System.out.printf("builtin call floor  %d runs after %d warm-up, calls %s%n", runs, warmup,
                    worker ? "hop to a worker (providers may block)" : "on the calling thread (providers never block)");
            System.out.printf("process cpu per run %.1f us   (%.1f us per call, 4 calls per run: 2 runs, 2 releases)%n",
                    cpu / 1e3 / runs, cpu / 1e3 / runs / 4);
            System.out.printf("wall                %.2f s, %.0f runs/s on one calling thread%n", wall / 1e9, runs / (wall / 1e9));
            return 0;
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().join();
        }
    }

    /** Echo then sleep 0, each started and released as the engine does for the bench flow. */
    private static void runOnce(LocalProvider echo, LocalProvider sleep, int n) {
        String run = UUID.randomUUID().toString();
        ActionStatus echoed = echo.run(Optional.empty(), ActionRequest.of(run + "-echo",
                JsonNodeFactory.instance.objectNode().put("message", "run " + n)), status -> { }).toCompletableFuture().join();
        ActionStatus slept = sleep.run(Optional.empty(), ActionRequest.of(run + "-sleep",
                JsonNodeFactory.instance.objectNode().put("seconds", 0)), status -> { }).toCompletableFuture().join();
        if (echoed.status() != ActionState.SUCCEEDED || slept.status() != ActionState.SUCCEEDED) {
            throw new IllegalStateException("run " + n + ": echo " + echoed.status() + ", sleep " + slept.status());
        }
        echo.release(Optional.empty(), echoed.actionId()).toCompletableFuture().join();
        sleep.release(Optional.empty(), slept.actionId()).toCompletableFuture().join();
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BuiltinCallFloor()).execute(args));
    }
}
