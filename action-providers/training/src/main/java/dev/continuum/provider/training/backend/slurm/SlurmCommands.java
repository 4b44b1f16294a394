package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.BackendException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The operations slurmrestd 22.05 lacks, done with Slurm's own commands on this host (which then needs Slurm's
 * client configuration and munge): a signal to the batch shell only ({@code scancel --batch}) and requeue
 * ({@code scontrol requeue}, {@code requeuehold}).
 */
final class SlurmCommands {
    private final Optional<Path> slurmConf;

    SlurmCommands(Optional<Path> slurmConf) {
        this.slurmConf = slurmConf;
    }

    void signalBatch(String jobId, String signal) throws BackendException {
        run(List.of("scancel", "--batch", "--signal=" + signal, jobId));
    }

    void requeue(String jobId, boolean hold) throws BackendException {
        run(List.of("scontrol", hold ? "requeuehold" : "requeue", jobId));
    }

    private void run(List<String> command) throws BackendException {
        try {
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            slurmConf.ifPresent(conf -> pb.environment().put("SLURM_CONF", conf.toString()));
            Process p = pb.start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new BackendException.Unavailable(String.join(" ", command) + " did not answer in 60 s", null);
            }
            if (p.exitValue() != 0) {
                if (out.contains("Invalid job id") || out.contains("already completing or completed")) {
                    return; // the job is gone or done: nothing left to signal
                }
                throw new BackendException.Unavailable(String.join(" ", command) + " failed: " + out, null);
            }
        } catch (IOException e) {
            throw new BackendException.Unavailable("cannot run " + command.getFirst() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException.Unavailable("interrupted running " + command.getFirst(), e);
        }
    }
}
