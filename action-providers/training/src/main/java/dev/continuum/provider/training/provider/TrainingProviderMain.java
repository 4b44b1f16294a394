package dev.continuum.provider.training.provider;

import dev.continuum.auth.oidc.ServiceAccountToken;
import dev.continuum.provider.client.ActionProviderClient;
import dev.continuum.provider.client.ClientOptions;
import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.server.ActionProviderServer;
import dev.continuum.provider.server.LocalProvider;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.FileActionStore;
import dev.continuum.provider.server.PostgresActionStore;
import dev.continuum.provider.server.ProviderLauncher;
import dev.continuum.provider.server.ProviderLauncher.Arguments;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.server.auth.JwtCallerResolver;
import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.client.FileCarrier;
import dev.continuum.provider.training.core.DecisionListener;
import dev.continuum.provider.training.core.TrainingScheduler;
import dev.continuum.provider.training.core.TrainingSite;
import dev.continuum.provider.client.TransferCarrier;
import dev.continuum.provider.training.planner.DecisionReporter;
import dev.continuum.provider.training.planner.PartitionReporter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
                   [--move-restart-seconds 60] [--move-min-residence-seconds 300] [--move-link-mbps 1000]
                   [--planner http://planner:8083 [--planner-report-seconds 30]]
                   [--sites sites.json --transfer-url http://dc:8093/providers/transfer/transfer]
                   [--backend local]      [--gpu-slots N]
                   [--backend slurm]      --slurm-url URL --slurm-token-file FILE [--slurm-user NAME]
                                          [--slurm-conf FILE] [--slurm-attempts 3] [--partitions P[,P...]] [--site NAME]
                   [--backend kubernetes] --kube-queues Q[,Q...] [--kube-context NAME] [--kube-namespace NS]
                                          [--kube-admission kueue|backend] [--kube-checkpoint-claim PVC] [--site NAME]
              runs training jobs on this machine (local, the default), on Slurm through slurmrestd (JWT read from
              the token file on every call) or as Kubernetes Jobs (in the provider pod's own namespace unless
              --kube-namespace names one; outside a cluster "default"); CONTINUUM_TRAINING_DB_URL keeps actions in PostgreSQL.
              --sites runs jobs at several sites instead of one backend (the first is the home of new jobs); a job
              moved between sites has its checkpoint carried by the transfer provider, signed as the service account
              CONTINUUM_TRANSFER_CLIENT_ID/CONTINUUM_TRANSFER_CLIENT_SECRET at CONTINUUM_AUTH_ISSUER.
              --policy priority+move lets the planner move jobs between partitions and sites when the wait it saves
              is over twice the restart (--move-restart-seconds) plus the checkpoint's carry (--move-link-mbps),
              a job staying at least --move-min-residence-seconds where it was put
            """;

    private TrainingProviderMain() {
    }

    record Settings(int port, String host, String basePath, Path workDir, String allowedRoots, BackendChoice backend,
                    String policy, int graceSeconds, String adminRole, Path stateDir, String plannerUrl,
                    int plannerReportSeconds, java.util.Optional<SitesFile> sites, String transferUrl,
                    MovePolicy.Costs moveCosts) {}

    public static void main(String[] args) {
        Settings s = ProviderLauncher.settingsOrExit(args, USAGE, TrainingProviderMain::parse);
        int port = ProviderLauncher.serve("continuum-training-provider", s.host(), s.port(), (vertx, router) -> {
            CallerResolver callers = JwtCallerResolver.fromEnvironment(System.getenv(), "continuum-provider-training",
                    "actions:training");
            ProviderServerOptions options = ProviderServerOptions.of(vertx).withCallerResolver(callers)
                    .withStore(store(s));
            List<TrainingSite> sites = sites(s);
            AllowedRoots roots = new AllowedRoots(Arrays.stream(s.allowedRoots().split(",")).map(Path::of).toList());
            ActionProviderClient transfers = new ActionProviderClient(vertx, ClientOptions.defaults());
            FileCarrier carrier = carrier(s, transfers);
            java.util.Optional<DecisionReporter> decisions = decisionReporter(s);
            TrainingProvider provider = new TrainingProvider(listener -> new TrainingScheduler(sites, carrier,
                    s.policy(), s.moveCosts(), Clock.systemUTC(), listener,
                    decisions.<DecisionListener>map(d -> d).orElse(DecisionListener.NONE)),
                    roots, Duration.ofSeconds(s.graceSeconds()), Duration.ofSeconds(1),
                    (job, run) -> decisions.ifPresent(d -> d.runOf(job, run)));
            new OperatorRoutes(provider, callers, s.adminRole()).mount(router, s.basePath());
            LocalProvider mounted = ActionProviderServer.mount(router, s.basePath(), provider, options);
            sites.forEach(site -> reportToPlanner(vertx, s, site.backend()));
            return () -> {
                mounted.close(); // first: nothing of the provider's is stored from here on, its loop ends (stop)
                transfers.close();
                decisions.ifPresent(DecisionReporter::close);
                sites.forEach(site -> site.backend().close());
            };
        });
        System.out.println("training provider on http://127.0.0.1:" + port + s.basePath() + s.sites()
                .map(f -> " (sites " + String.join(", ", f.sites().stream().map(SitesFile.Site::name).toList())
                        + (s.transferUrl() == null ? ", no transfer provider" : ", checkpoints carried by " + s.transferUrl())
                        + ")")
                .orElse(" (backend " + s.backend().getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT) + ")"));
    }

    /** The sites of {@code --sites}, or the one backend of {@code --backend} working under the work directory. */
    private static List<TrainingSite> sites(Settings s) throws BackendException {
        if (s.sites().isEmpty()) {
            TrainingBackend backend = s.backend().open();
            return List.of(new TrainingSite(backend.inventory().site(), backend, backend.inventory(), Path.of("/"),
                    java.util.Optional.empty(), s.workDir().resolve("jobs")));
        }
        List<TrainingSite> sites = new ArrayList<>();
        for (SitesFile.Site site : s.sites().get().sites()) {
            TrainingBackend backend = site.backend().open();
            sites.add(new TrainingSite(site.name(), backend, backend.inventory(), site.root(), site.transferEndpoint(),
                    s.workDir().resolve("sites").resolve(site.name()).resolve("jobs")));
        }
        return sites;
    }

    /**
     * With {@code --transfer-url} (or {@code CONTINUUM_TRANSFER_URL}): checkpoints go between sites through that
     * transfer provider, signed as {@code CONTINUUM_TRANSFER_CLIENT_ID}/{@code _SECRET} (scope actions:transfer).
     */
    private static FileCarrier carrier(Settings s, ActionProviderClient client) {
        if (s.transferUrl() == null || s.transferUrl().isBlank()) {
            return FileCarrier.NONE;
        }
        Supplier<String> token = ServiceAccountToken.forTransfer(System.getenv()).<Supplier<String>>map(t -> t::current)
                .orElse(() -> null);
        return new TransferCarrier(client, s.transferUrl(), token, Duration.ofSeconds(30));
    }

    /**
     * With a planner: every decision of the in-process planner goes to its decision log, signed as the same service
     * account as the partitions' reports; up to 10,000 wait while it is away, tried again every 10 s.
     */
    private static java.util.Optional<DecisionReporter> decisionReporter(Settings s) {
        if (s.plannerUrl() == null || s.plannerUrl().isBlank()) {
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(new DecisionReporter(plannerClient(s), 10_000, Duration.ofSeconds(10)));
    }

    /** The planner's client, signed as {@code CONTINUUM_PLANNER_CLIENT_ID}/{@code _SECRET} (renewed before it runs out). */
    private static PlannerClient plannerClient(Settings s) {
        Supplier<String> token = ServiceAccountToken.forPlanner(System.getenv()).<Supplier<String>>map(t -> t::current)
                .orElse(() -> null);
        return new PlannerClient(java.net.URI.create(s.plannerUrl()), token);
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
        PartitionReporter reporter = new PartitionReporter(backend, plannerClient(s));
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

    /** Several instances on one database share the actions (ADR 0027); {@code CONTINUUM_TRAINING_INSTANCE_ID} names this one. */
    private static dev.continuum.provider.server.ActionStore store(Settings s) {
        return PostgresActionStore.fromEnvironment(System.getenv(), "CONTINUUM_TRAINING", "training_actions",
                        PostgresActionStore.hostInstanceId(s.port()))
                .<dev.continuum.provider.server.ActionStore>map(store -> store)
                .orElseGet(() -> new FileActionStore(s.stateDir()));
    }

    /** Returns null when help was asked for. */
    static Settings parse(String[] args) {
        Set<String> options = new java.util.HashSet<>(Set.of("--port", "--host", "--base-path", "--work-dir",
                "--allowed-roots", "--policy", "--grace-seconds", "--admin-role", "--state-dir", "--planner",
                "--planner-report-seconds", "--sites", "--transfer-url", "--move-restart-seconds",
                "--move-min-residence-seconds", "--move-link-mbps"));
        options.addAll(BackendChoice.OPTIONS);
        Arguments a = Arguments.parse(args, options, Set.of());
        if (a == null) {
            return null;
        }
        Path work = a.path("--work-dir").orElseThrow(() -> new IllegalArgumentException("--work-dir is required"));
        java.util.Optional<SitesFile> sites = a.path("--sites").map(SitesFile::read);
        // with sites, locations are below the home site's directory unless other roots are named
        String roots = a.text("--allowed-roots", sites.map(f -> f.sites().getFirst().root().toString())
                .orElse(work.resolve("data").toString()));
        return new Settings(a.port("--port", 8096), a.text("--host", "0.0.0.0"),
                a.basePath("--base-path", "/providers/training"), work, roots, BackendChoice.parse(a),
                a.text("--policy", "priority"), a.number("--grace-seconds", 30, 0, 3600),
                a.text("--admin-role", "continuum-admin"), a.path("--state-dir").orElse(work.resolve("actions")),
                a.text("--planner").orElse(System.getenv("CONTINUUM_PLANNER_URL")), a.number("--planner-report-seconds", 30, 1, 86_400),
                sites, a.text("--transfer-url").orElse(System.getenv("CONTINUUM_TRANSFER_URL")),
                MovePolicy.Costs.DEFAULT.withRestartSeconds(a.number("--move-restart-seconds", 60, 0, 86_400))
                        .withMinResidenceSeconds(a.number("--move-min-residence-seconds", 300, 0, 86_400))
                        .withBytesPerSecond(a.number("--move-link-mbps", 1000, 1, 10_000_000) * 125_000.0));
    }
}
