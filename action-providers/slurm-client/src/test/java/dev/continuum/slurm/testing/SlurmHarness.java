package dev.continuum.slurm.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Assumptions;

/**
 * A real single-node Slurm for tests (slurmctld, slurmd, slurmrestd with JWT, munged; 4 fake GPUs; partitions
 * {@code gpu-a} and {@code gpu-b} over the same node), started once per test JVM by {@code slurm-harness.sh} and
 * stopped when the JVM exits. Tests that need it call {@link #shared()}: without Slurm installed (or not as root)
 * they are skipped with the reason, unless {@code CONTINUUM_REQUIRE_SLURM=1} (set by {@code .ci/run}), where a
 * missing Slurm is a failure.
 */
public final class SlurmHarness {
  public static final String PARTITION_A = "gpu-a";
  public static final String PARTITION_B = "gpu-b";
  public static final int GPUS = 4;
  private static final String SCRIPT = "slurm-harness.sh";
  private static SlurmHarness shared;
  private static String unavailable;

  private final Path dir;
  private final Path script;
  private final Map<String, String> values;

  private SlurmHarness(Path dir, Path script, Map<String, String> values) {
    this.dir = dir;
    this.script = script;
    this.values = values;
  }

  /** The JVM's Slurm, started on first use; skips the calling test (or fails under CI) when Slurm cannot run. */
  public static synchronized SlurmHarness shared() {
    if (shared == null && unavailable == null) {
      unavailable = whyUnavailable();
      if (unavailable == null) {
        try {
          shared = start(Files.createTempDirectory("continuum-slurm"));
          Runtime.getRuntime().addShutdownHook(new Thread(shared::stop, "slurm-harness-stop"));
        } catch (IOException | RuntimeException e) {
          unavailable = "the test Slurm did not start: " + e.getMessage();
        }
      }
    }
    if (unavailable != null) {
      if ("1".equals(System.getenv("CONTINUUM_REQUIRE_SLURM"))) {
        throw new IllegalStateException(unavailable + " (CONTINUUM_REQUIRE_SLURM=1)");
      }
      Assumptions.abort("needs a real Slurm: " + unavailable);
    }
    return shared;
  }

  /** Null when this machine can run the harness, else why not. */
  static String whyUnavailable() {
    for (String daemon : List.of("munged", "slurmctld", "slurmd", "slurmrestd")) {
      if (!Files.isExecutable(Path.of("/usr/sbin", daemon))) {
        return "/usr/sbin/" + daemon + " is missing (apt-get install slurm-wlm slurmrestd munge; .ci/run does)";
      }
    }
    if (!"root".equals(System.getProperty("user.name"))) {
      return "the harness runs slurmd and munged and makes device nodes, which needs root";
    }
    return null;
  }

  static SlurmHarness start(Path dir) throws IOException {
    Path script = dir.resolve(SCRIPT);
    try (InputStream in = SlurmHarness.class.getResourceAsStream("/" + SCRIPT)) {
      if (in == null) throw new IOException(SCRIPT + " is not on the test class path");
      Files.copy(in, script);
    }
    String out = bash(script, "start", dir);
    Map<String, String> values = new HashMap<>();
    out.lines().filter(l -> l.contains("=")).forEach(l -> values.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
    return new SlurmHarness(dir, script, values);
  }

  public String restUrl() { return values.get("SLURMRESTD_URL"); }

  public String user() { return values.get("SLURM_JWT_USER"); }

  /** A JWT for {@link #user()} from {@code scontrol token}, valid for a day. */
  public String token() {
    try {
      return Files.readString(Path.of(values.get("SLURM_JWT_FILE"))).strip();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  public Path conf() { return Path.of(values.get("SLURM_CONF")); }

  /** A directory every job may write to (scripts' output, checkpoints). */
  public Path jobsDir() { return Path.of(values.get("JOBS_DIR")); }

  public Path dir() { return dir; }

  /** Environment for Slurm's own commands (sbatch, squeue, scontrol) to reach this cluster. */
  public Map<String, String> env() { return Map.of("SLURM_CONF", conf().toString()); }

  /** Runs a Slurm command against this cluster and returns its standard output; fails on a non-zero exit. */
  public String run(String... command) {
    return exec(List.of(command), env());
  }

  /** Cancels every job, so a test starts on an empty cluster. */
  public void cancelAll() {
    run("scancel", "--full", "--user=" + user());
    awaitTrue(Duration.ofSeconds(30), "jobs to leave the node", () -> run("squeue", "-h", "-t", "R,CG").isBlank());
  }

  /** As a crashed node looks to slurmctld: slurmd and its job steps killed. */
  public void killSlurmd() {
    bash(script, "kill-slurmd", dir);
  }

  public void startSlurmd() {
    bash(script, "start-slurmd", dir);
  }

  /** slurmrestd down (the cluster itself keeps running): the REST API refuses connections. */
  public void stopSlurmrestd() {
    bash(script, "stop-slurmrestd", dir);
  }

  /** slurmrestd back on the same port. */
  public void startSlurmrestd() {
    bash(script, "start-slurmrestd", dir);
  }

  /** Stops the daemons and removes the cluster's directory (set CONTINUUM_KEEP_SLURM=1 to keep its logs). */
  public void stop() {
    bash(script, "stop", dir);
    if (!"1".equals(System.getenv("CONTINUUM_KEEP_SLURM"))) {
      try (var files = Files.walk(dir)) {
        files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (IOException e) {
        // a leftover temp directory is harmless
      }
    }
  }

  /** Polls until the condition holds or fails with what was awaited. */
  public static void awaitTrue(Duration limit, String what, BooleanSupplier condition) {
    Awaitility.await(what).atMost(limit).pollInterval(Duration.ofMillis(200)).until(condition::getAsBoolean);
  }

  private static String bash(Path script, String command, Path dir) {
    return exec(List.of("bash", script.toString(), command, dir.toString()), Map.of());
  }

  private static String exec(List<String> command, Map<String, String> env) {
    try {
      Path errFile = Files.createTempFile("slurm-cmd", ".err");
      ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectError(errFile.toFile());
      pb.environment().putAll(env);
      Process p = pb.start();
      p.getOutputStream().close();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(2, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish");
      }
      String errors = Files.readString(errFile);
      Files.deleteIfExists(errFile);
      if (p.exitValue() != 0) {
        throw new IllegalStateException(String.join(" ", command) + " exited " + p.exitValue() + ": " + errors.strip());
      }
      return out;
    } catch (IOException e) {
      throw new IllegalStateException(String.join(" ", command) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + command);
    }
  }
}
