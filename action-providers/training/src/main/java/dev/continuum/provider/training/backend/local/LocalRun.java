package dev.continuum.provider.training.backend.local;

import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.Progress;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One attempt of a job on this machine: one child process per rank. Rank 0's output is read line
 * by line (for {@link Progress}) and copied to {@code attempt-N.log}; other ranks write to their
 * own log. Thread-safe: state changes under the run's monitor.
 */
final class LocalRun {
    enum Ending { NONE, STOP_REQUESTED, KILLED_AFTER_GRACE, CANCELLED }

    final TrainingJobSpec spec;
    final Placement requested;
    private Placement placement;
    private final List<Process> processes = new ArrayList<>();
    private volatile Optional<Progress> progress = Optional.empty();
    private Ending ending = Ending.NONE;
    private BackendJobStatus finalStatus;
    private CompletableFuture<Void> exited = new CompletableFuture<>();

    LocalRun(TrainingJobSpec spec, Placement requested) {
        this.spec = spec;
        this.requested = requested;
    }

    /** Starts every rank on the given device slots (one each; none when the job asked for no GPU). */
    synchronized void start(String node, List<String> slots) throws IOException {
        placement = requested.withAssignment(List.of(node), slots);
        int world = requested.worldSize();
        Path work = Path.of(spec.workDir());
        Files.createDirectories(work);
        Files.createDirectories(Path.of(spec.checkpointDir()));
        Files.createDirectories(Path.of(spec.outputDir()));
        List<CompletableFuture<Process>> exits = new ArrayList<>();
        for (int rank = 0; rank < world; rank++) {
            ProcessBuilder pb = new ProcessBuilder(spec.commandLine()).directory(work.toFile());
            Map<String, String> env = pb.environment();
            env.putAll(CheckpointProtocol.environment(spec, world, rank, rank));
            env.put(CheckpointProtocol.ENV_CUDA_VISIBLE_DEVICES, slots.isEmpty() ? "" : slots.get(rank));
            Path log = work.resolve("attempt-" + spec.attempt() + (rank == 0 ? "" : "-rank-" + rank) + ".log");
            pb.redirectErrorStream(true);
            if (rank != 0) {
                pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            }
            Process p = pb.start();
            processes.add(p);
            if (rank == 0) {
                Thread.ofVirtual().name("training-log-" + spec.jobId()).start(() -> copyOutput(p, log));
            }
            exits.add(p.onExit());
        }
        Files.writeString(pidFile(spec),
                String.join("\n", processes.stream().map(p -> Long.toString(p.pid())).toList()));
        exited = CompletableFuture.allOf(exits.toArray(CompletableFuture[]::new));
    }

    static Path pidFile(TrainingJobSpec spec) {
        return Path.of(spec.workDir()).toAbsolutePath().resolve("attempt-" + spec.attempt() + ".pids");
    }

    private void copyOutput(Process p, Path log) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
             Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                     StandardOpenOption.APPEND)) {
            String line;
            while ((line = in.readLine()) != null) {
                out.write(line);
                out.write('\n');
                out.flush();
                Progress.parse(line).ifPresent(pr -> progress = Optional.of(pr));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    CompletableFuture<Void> exited() {
        return exited;
    }

    synchronized boolean started() {
        return placement != null;
    }

    synchronized Placement placement() {
        return placement;
    }

    Optional<Progress> progress() {
        return progress;
    }

    synchronized Ending ending() {
        return ending;
    }

    synchronized void mark(Ending e) {
        if (ending != Ending.CANCELLED && ending != Ending.KILLED_AFTER_GRACE) {
            ending = e;
        }
    }

    /** Sends {@code signal} (USR1, TERM, KILL) to every rank still alive. */
    synchronized void signal(String signal) {
        for (Process p : processes) {
            if (p.isAlive()) {
                if (signal.equals("KILL")) {
                    p.destroyForcibly();
                } else {
                    try {
                        new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).start().waitFor();
                    } catch (IOException e) {
                        p.destroy();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        }
    }

    synchronized boolean alive() {
        return processes.stream().anyMatch(Process::isAlive);
    }

    /** The status once every rank exited: decided by the ending asked for and rank 0's (or the worst) exit code. */
    synchronized BackendJobStatus finish() {
        if (finalStatus != null) {
            return finalStatus;
        }
        int code = processes.stream().mapToInt(Process::exitValue).filter(c -> c != 0).findFirst().orElse(0);
        if (!processes.isEmpty()) {
            code = processes.getFirst().exitValue() != 0 ? processes.getFirst().exitValue() : code;
        }
        finalStatus = switch (ending) {
            case CANCELLED -> new BackendJobStatus.Cancelled();
            case KILLED_AFTER_GRACE -> new BackendJobStatus.Killed(
                    "did not checkpoint and exit within the grace period of " + spec.gracePeriod().toSeconds() + " s",
                    progress);
            // killed by the signal itself: it came before the job installed its handler (JVM still starting)
            case STOP_REQUESTED -> code == CheckpointProtocol.EXIT_CHECKPOINTED ? new BackendJobStatus.Checkpointed(progress)
                    // it finished its work before it saw the signal
                    : code == 0 ? new BackendJobStatus.Succeeded(progress)
                    : new BackendJobStatus.Killed("ended with code " + code + " on the stop signal, before it could checkpoint",
                    progress);
            default -> code == CheckpointProtocol.EXIT_CHECKPOINTED ? new BackendJobStatus.Checkpointed(progress)
                    : code == 0 ? new BackendJobStatus.Succeeded(progress)
                    : new BackendJobStatus.Failed(code, "exited with code " + code + " (see attempt-" + spec.attempt()
                    + ".log in the job's work directory)", progress);
        };
        return finalStatus;
    }

    synchronized void cancelBeforeStart() {
        ending = Ending.CANCELLED;
        finalStatus = new BackendJobStatus.Cancelled();
    }

    synchronized BackendJobStatus finalStatus() {
        return finalStatus;
    }
}
