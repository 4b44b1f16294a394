package dev.continuum.deploy;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cluster half of {@code continuum up}: the training provider on the local backend (child processes on
 * this machine, docs/training.md), or on Slurm when {@code CONTINUUM_TRAINING_BACKEND=slurm} and the
 * {@code CONTINUUM_SLURM_*} variables say where. Checkpoints and models go under the datacenter endpoint's
 * {@code training/} directory, so the transfer provider and the inference provider's model deployment see
 * them. Logs and state in {@code <data>/training}; {@link #close()} stops it.
 */
final class TrainingUp implements AutoCloseable {

    /** {@code local} (default) or {@code slurm}. */
    static final String BACKEND_KEY = "CONTINUUM_TRAINING_BACKEND";
    /** Where training jobs leave checkpoints and models, inside the datacenter endpoint. */
    static final String TRAINING_DIR = "training";
    private static final String DEMO_TRAINER = "dev.continuum.provider.training.demo.DemoTrainer";
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Path dir;
    private final ChildProcesses children;
    private final Path jar;
    private String providerUrl;

    private TrainingUp(Path dataDir, Path jar) {
        this.dir = dataDir.resolve("training");
        this.children = new ChildProcesses(dir);
        this.jar = jar;
    }

    /** The training provider's runner jar, which also holds the demo trainer; empty when it is not built. */
    static Optional<Path> runnerJar(Path repo) throws Exception {
        return ChildProcesses.runner(repo.resolve("action-providers/training/target"), "continuum-training-provider-");
    }

    /** Starts the provider, or says why not and returns empty (the rest of the platform works without it). */
    static Optional<TrainingUp> start(Path repo, Path dataDir, Path datacenter, Map<String, String> providerAuth,
                                      Optional<String> plannerUrl, Map<String, String> plannerLogin, int port) throws Exception {
        Optional<Path> jar = runnerJar(repo);
        if (jar.isEmpty()) {
            say("Training:       skipped — the training provider is not built (mvn -B -q install -DskipTests)");
            return Optional.empty();
        }
        TrainingUp training = new TrainingUp(dataDir, jar.get());
        try {
            training.startProvider(datacenter, providerAuth, plannerUrl, plannerLogin, port);
            return Optional.of(training);
        } catch (Exception | Error e) {
            training.close();
            throw e;
        }
    }

    String providerUrl() {
        return providerUrl;
    }

    /** The command a job runs to train the demo classifier (this JVM's java, the runner jar). */
    List<String> demoTrainerCommand() {
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", jar.toString(), DEMO_TRAINER);
    }

    /**
     * A first version of the demo model for the gateways to start with (a few steps of the demo trainer), so
     * that deploying the retrained one visibly changes the digest. Made once per data dir.
     */
    static Path baselineModel(Path jar, Path dir) throws Exception {
        Path model = dir.resolve("model.onnx");
        if (Files.isRegularFile(model)) {
            return model;
        }
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", jar.toString(), DEMO_TRAINER, "--steps", "5")
                .redirectErrorStream(true).redirectOutput(dir.resolveSibling("baseline-model.log").toFile());
        Files.createDirectories(dir);
        builder.environment().put("CONTINUUM_CHECKPOINT_DIR", dir.resolve("checkpoints").toString());
        builder.environment().put("CONTINUUM_OUTPUT_DIR", dir.toString());
        Process p = builder.start();
        if (!p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS) || p.exitValue() != 0 || !Files.isRegularFile(model)) {
            p.destroyForcibly();
            throw new IllegalStateException("the demo trainer could not make the gateways' first model; see "
                    + dir.resolveSibling("baseline-model.log"));
        }
        return model;
    }

    /** The provider's base at {@code port}: the address the engine relays operator calls to (/ops/training). */
    static String providerUrl(int port) {
        return "http://127.0.0.1:" + port + "/providers/training";
    }

    private void startProvider(Path datacenter, Map<String, String> providerAuth, Optional<String> plannerUrl,
                               Map<String, String> plannerLogin, int port) throws Exception {
        Files.createDirectories(dir);
        Path roots = Files.createDirectories(datacenter.resolve(TRAINING_DIR));
        providerUrl = providerUrl(port);
        List<String> args = new ArrayList<>(List.of("--port", String.valueOf(port), "--work-dir", dir.resolve("work").toString(),
                "--state-dir", dir.resolve("state").toString(), "--allowed-roots", roots.toString()));
        String backend = backendArgs(System.getenv(), args);
        Map<String, String> env = new HashMap<>(providerAuth);
        // the backend's partitions go into the planner's inventory, signed as the planner's reporter account
        plannerUrl.ifPresent(url -> {
            args.addAll(List.of("--planner", url));
            env.putAll(plannerLogin);
        });
        Process provider = children.launch("training-provider", jar, args, env);
        URI health = URI.create("http://127.0.0.1:" + port + "/health");
        children.await(provider, "training-provider", "the training provider to start", Duration.ofSeconds(90),
                () -> HTTP.send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200);
        say("Training:       " + providerUrl + " (backend " + backend + "; checkpoints and models in " + roots
                + ", log " + children.log("training-provider") + ")");
    }

    /**
     * The backend's options from the environment: local child processes by default; with
     * {@code CONTINUUM_TRAINING_BACKEND=slurm}, slurmrestd at {@code CONTINUUM_SLURM_URL} with the JWT in
     * {@code CONTINUUM_SLURM_TOKEN_FILE} (optional {@code CONTINUUM_SLURM_USER}, {@code CONTINUUM_SLURM_PARTITIONS},
     * {@code CONTINUUM_SLURM_CONF}). Returns what to print.
     */
    static String backendArgs(Map<String, String> env, List<String> args) {
        String backend = env.getOrDefault(BACKEND_KEY, "local").trim();
        switch (backend) {
            case "local", "" -> {
                return "local, child processes on this machine";
            }
            case "slurm" -> {
                String url = required(env, "CONTINUUM_SLURM_URL");
                args.addAll(List.of("--backend", "slurm", "--slurm-url", url, "--slurm-token-file",
                        required(env, "CONTINUUM_SLURM_TOKEN_FILE")));
                optional(env, "CONTINUUM_SLURM_USER", "--slurm-user", args);
                optional(env, "CONTINUUM_SLURM_PARTITIONS", "--partitions", args);
                optional(env, "CONTINUUM_SLURM_CONF", "--slurm-conf", args);
                return "slurm at " + url;
            }
            default -> throw new IllegalStateException(BACKEND_KEY + " must be local or slurm, not " + backend);
        }
    }

    private static String required(Map<String, String> env, String key) {
        String value = env.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(BACKEND_KEY + "=slurm needs " + key);
        }
        return value.trim();
    }

    private static void optional(Map<String, String> env, String key, String option, List<String> args) {
        String value = env.get(key);
        if (value != null && !value.isBlank()) {
            args.addAll(List.of(option, value.trim()));
        }
    }

    private static void say(String line) {
        System.out.println(line);
    }

    @Override
    public void close() {
        children.close();
    }
}
