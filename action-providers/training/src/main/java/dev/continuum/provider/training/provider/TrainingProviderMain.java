package dev.continuum.provider.training.provider;

import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.provider.client.PlannerClient;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.server.ProviderLauncher.Arguments;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.core.TrainingScheduler;
import dev.continuum.provider.training.planner.PartitionReporter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.Set;

/**
 * {@code java -jar continuum-training-provider-*-runner.jar [--port 8096] [--host 0.0.0.0]
 * [--base-path /providers/training] --work-dir DIR [--allowed-roots DIR,DIR] [--backend local|slurm|kubernetes]
 * [backend options, see {@link BackendChoice}] [--policy priority] [--grace-seconds 30]
 * [--admin-role continuum-admin] [--state-dir DIR]}.
 * Actions are kept in PostgreSQL when {@code CONTINUUM_TRAINING_DB_URL} (with
 * {@code CONTINUUM_TRAINING_DB_USER}/{@code _PASSWORD}) is set, else in files under
 * {@code --state-dir} (default {@code WORK/actions}); either way they survive a restart.
 */
public final class TrainingProviderMain {
    private static final String USAGE = """
            usage: continuum-training-provider --work-dir DIR [--port 8096] [--host 0.0.0.0]
                   [--base-path /providers/training] [--allowed-roots DIR[,DIR...]]
                   [--policy priority] [--grace-seconds 30] [--admin-role continuum-admin] [--state-dir DIR]
                   [--planner http://planner:8083 [--planner-report-seconds 30]]
                   [--backend local]      [--gpu-slots N]
                   [--backend slurm]      --slurm-url URL --slurm-token-file FILE [--slurm-user NAME]
                                          [--slurm-conf FILE] [--slurm-attempts 3] [--partitions P[,P...]] [--site NAME]
                   [--backend kubernetes] --kube-queues Q[,Q...] [--kube-context NAME] [--kube-namespace default]
                                          [--kube-admission kueue|backend] [--kube-checkpoint-claim PVC] [--site NAME]
              runs training jobs on this machine (local, the default), on Slurm through slurmrestd (JWT read from
              the token file on every call) or as Kubernetes Jobs; CONTINUUM_TRAINING_DB_URL keeps actions in PostgreSQL
            """;

    private TrainingProviderMain() {
    }

    record Settings(int port, String host, String basePath, Path workDir, String allowedRoots, BackendChoice backend,
                    String policy, int graceSeconds, String adminRole, Path stateDir, String plannerUrl,
                    int plannerReportSeconds) {}

    public static void main(String[] args) {
        Settings s = ProviderLauncher.settingsOrExit(args, USAGE, TrainingProviderMain::parse);
        int port = ProviderLauncher.serve(s.host(), s.port(), (vertx, router) -> {
            CallerResolver callers = JwtCallerResolver.fromEnvironment(System.getenv(), "continuum-provider-training",
                    "actions:training");
            ProviderServerOptions options = ProviderServerOptions.of(vertx).withCallerResolver(callers)
                    .withStore(store(s));
            TrainingBackend backend = s.backend().open();
            AllowedRoots roots = new AllowedRoots(Arrays.stream(s.allowedRoots().split(",")).map(Path::of).toList());
            TrainingProvider provider = new TrainingProvider(listener -> new TrainingScheduler(backend, s.policy(),
                    Clock.systemUTC(), listener, s.workDir().resolve("jobs")), roots,
                    Duration.ofSeconds(s.graceSeconds()), Duration.ofSeconds(1));
            new OperatorRoutes(provider, callers, s.adminRole()).mount(router, s.basePath());
            ActionProviderServer.mount(router, s.basePath(), provider, options);
            reportToPlanner(vertx, s, backend);
            return () -> {
                provider.close();
                backend.close();
            };
        });
        System.out.println("training provider on http://127.0.0.1:" + port + s.basePath() + " (backend "
                + s.backend().getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + ")");
    }

    /**
     * With a planner ({@code --planner} or {@code CONTINUUM_PLANNER_URL}), signed as the service account
     * {@code CONTINUUM_PLANNER_CLIENT_ID}/{@code _SECRET} at {@code CONTINUUM_AUTH_ISSUER}:
     * the backend's partitions now, then whenever they changed (docs/training.md, "Reporting partitions to the planner").
     */
    private static void reportToPlanner(io.vertx.core.Vertx vertx, Settings s, TrainingBackend backend) {
        if (s.plannerUrl() == null || s.plannerUrl().isBlank()) {
            return;
        }
        // the provider's own service account (CONTINUUM_PLANNER_CLIENT_ID/_SECRET), renewed before it runs out
        Supplier<String> token = ServiceAccountToken.forPlanner(System.getenv()).<Supplier<String>>map(t -> t::current)
                .orElse(() -> null);
        PartitionReporter reporter = new PartitionReporter(backend, new PlannerClient(java.net.URI.create(s.plannerUrl()), token));
        Runnable check = () -> vertx.executeBlocking(() -> {
            PartitionReporter.Outcome outcome = reporter.check();
            if (outcome.sent()) {
                System.out.println(outcome.status() == 200 ? "reported the backend's partitions to the planner"
                        : "the planner did not take the partitions report (" + outcome.status() + "): " + outcome.detail());
            }
            return null;
        }, false);
        check.run();
        vertx.setPeriodic(s.plannerReportSeconds() * 1000L, t -> check.run());
    }

    private static dev.continuum.provider.server.ActionStore store(Settings s) {
        String url = System.getenv("CONTINUUM_TRAINING_DB_URL");
        if (url != null && !url.isBlank()) {
            return new PostgresActionStore(url, System.getenv().getOrDefault("CONTINUUM_TRAINING_DB_USER", "postgres"),
                    System.getenv().getOrDefault("CONTINUUM_TRAINING_DB_PASSWORD", ""));
        }
        return new FileActionStore(s.stateDir());
    }

    /** Returns null when help was asked for. */
    static Settings parse(String[] args) {
        Set<String> options = new java.util.HashSet<>(Set.of("--port", "--host", "--base-path", "--work-dir",
                "--allowed-roots", "--policy", "--grace-seconds", "--admin-role", "--state-dir", "--planner",
                "--planner-report-seconds"));
        options.addAll(BackendChoice.OPTIONS);
        Arguments a = Arguments.parse(args, options, Set.of());
        if (a == null) {
            return null;
        }
        Path work = a.path("--work-dir").orElseThrow(() -> new IllegalArgumentException("--work-dir is required"));
        return new Settings(a.port("--port", 8096), a.text("--host", "0.0.0.0"),
                a.basePath("--base-path", "/providers/training"), work,
                a.text("--allowed-roots", work.resolve("data").toString()), BackendChoice.parse(a),
                a.text("--policy", "priority"), a.number("--grace-seconds", 30, 0, 3600),
                a.text("--admin-role", "continuum-admin"), a.path("--state-dir").orElse(work.resolve("actions")),
                a.text("--planner").orElse(System.getenv("CONTINUUM_PLANNER_URL")), a.number("--planner-report-seconds", 30, 1, 86_400));
    }
}
