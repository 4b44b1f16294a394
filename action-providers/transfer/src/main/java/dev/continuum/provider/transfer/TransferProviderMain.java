package dev.continuum.provider.transfer;

import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.server.ActionStore;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.PostgresActionStore;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.server.ProviderLauncher.Arguments;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.transfer.endpoint.EndpointRegistry;
import dev.continuum.provider.transfer.engine.Blake3;
import dev.continuum.provider.transfer.engine.ChecksumAlgorithm;
import dev.continuum.provider.transfer.engine.TransferOptions;
import dev.continuum.provider.transfer.provider.EndpointConfig;
import dev.continuum.provider.transfer.provider.MeasuredRates;
import dev.continuum.provider.transfer.provider.TransferProviders;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Serves the transfer providers on their own:
 * {@code java -jar continuum-transfer-provider-<ver>-runner.jar --endpoints endpoints.json --state /var/lib/continuum-transfer --port 8093}.
 * Unfinished transfers found in the state directory are resumed at start.
 */
public final class TransferProviderMain {

    private static final String USAGE = """
            usage: continuum-transfer-provider --endpoints FILE [--state DIR] [--port 8093] [--host 127.0.0.1]
                   [--base-path /providers/transfer] [--parallelism 4] [--chunk-mib 8] [--max-mib-per-second N]
                   [--planner URL]
              serves transfer, ls, mkdir and delete at http://HOST:PORT/BASE/<name>; with --planner
              (CONTINUUM_PLANNER_URL) each transfer's measured rate goes to the planner's link model, signed as
              CONTINUUM_PLANNER_CLIENT_ID/CONTINUUM_PLANNER_CLIENT_SECRET at CONTINUUM_AUTH_ISSUER
            """;

    private TransferProviderMain() {}

    record Settings(int port, String host, String basePath, Path endpoints, Path state, int parallelism, int chunkMib,
                    int maxMibPerSecond, String planner) {}

    public static void main(String[] args) {
        Settings settings = ProviderLauncher.settingsOrExit(args, USAGE, TransferProviderMain::parse);
        TransferOptions options = TransferOptions.defaults().withParallelism(settings.parallelism())
                .withChunkBytes(settings.chunkMib() * 1024 * 1024)
                .withMaxBytesPerSecond(settings.maxMibPerSecond() * 1024L * 1024);
        EndpointRegistry endpoints;
        try {
            endpoints = EndpointConfig.load(settings.endpoints(), options.chunkBytes());
        } catch (RuntimeException e) {
            System.err.println("cannot load endpoints: " + e.getMessage());
            System.exit(2);
            return;
        }
        int port = ProviderLauncher.serve("continuum-transfer-provider", settings.host(), settings.port(),
                mount(settings, endpoints, options));
        System.out.println("continuum transfer providers listening on http://" + settings.host() + ":"
                + port + settings.basePath() + "/{transfer,ls,mkdir,delete}; default checksum "
                + ChecksumAlgorithm.defaultForThisJvm().label() + " (BLAKE3 " + Blake3.implementation() + ")");
        Thread.ofPlatform().daemon().name("blake3-warm-up").start(Blake3::warmUp);
    }

    /**
     * Mounts the transfer family under the base path. What it returns closes them, and the launcher closes that first as
     * the JVM stops: a transfer in flight stores nothing more (its stored state and journal stay, for the next start or
     * another instance to resume), a new action is refused (503).
     */
    static ProviderLauncher.Mount mount(Settings settings, EndpointRegistry endpoints, TransferOptions options) {
        return (vertx, router) -> {
            // CONTINUUM_AUTH_ENABLED=true: only tokens for continuum-provider-transfer with scope actions:transfer (docs/auth.md).
            // CONTINUUM_TRANSFER_DB_URL: transfers in PostgreSQL, shared by several instances (ADR 0027)
            ActionStore actions = PostgresActionStore.fromEnvironment(System.getenv(), "CONTINUUM_TRANSFER", "transfer_actions",
                    PostgresActionStore.hostInstanceId(settings.port())).<ActionStore>map(store -> store)
                    .orElseGet(() -> new FileActionStore(settings.state().resolve("actions")));
            List<LocalProvider> mounted = TransferProviders.mountAll(router, settings.basePath(), vertx, endpoints, options,
                    settings.state(), actions,
                    JwtCallerResolver.fromEnvironment(System.getenv(), "continuum-provider-transfer", "actions:transfer"),
                    rates(settings.planner()));
            return () -> mounted.forEach(LocalProvider::close);
        };
    }

    /**
     * With a planner ({@code --planner} or {@code CONTINUUM_PLANNER_URL}): each transfer's measured rate is posted to
     * its link model, signed as the service account {@code CONTINUUM_PLANNER_CLIENT_ID}/{@code _SECRET}.
     */
    static MeasuredRates rates(String plannerUrl) {
        if (plannerUrl == null || plannerUrl.isBlank()) {
            return MeasuredRates.NONE;
        }
        Supplier<String> token = ServiceAccountToken.forPlanner(System.getenv()).<Supplier<String>>map(t -> t::current)
                .orElse(() -> null);
        PlannerClient planner = new PlannerClient(URI.create(plannerUrl), token);
        return (from, to, bytes, elapsed) -> planner.transferMeasured(from, to, bytes, elapsed.toNanos() / 1e9);
    }

    /** Returns null when help was asked for. */
    static Settings parse(String[] args) {
        Arguments a = Arguments.parse(args, Set.of("--port", "--host", "--base-path", "--endpoints", "--state",
                "--parallelism", "--chunk-mib", "--max-mib-per-second", "--planner"), Set.of());
        if (a == null) {
            return null;
        }
        Path endpoints = a.path("--endpoints")
                .orElseThrow(() -> new IllegalArgumentException("--endpoints FILE is required"));
        return new Settings(a.port("--port", 8093), a.text("--host", "127.0.0.1"),
                a.basePath("--base-path", "/providers/transfer"), endpoints,
                a.path("--state").orElse(Path.of("continuum-transfer-state")), a.number("--parallelism", 4, 1, 256),
                a.number("--chunk-mib", 8, 5, 1024), a.number("--max-mib-per-second", 0, 0, 1_000_000),
                a.text("--planner").orElse(System.getenv("CONTINUUM_PLANNER_URL")));
    }
}
