package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Slurm's view of a job, as far as the backend reads it, and its meaning for the provider. Pure: the backend
 * fetches, this decides.
 *
 * @param state      Slurm's job_state (PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, NODE_FAIL, …)
 * @param reason     state_reason (Resources, Priority, JobHeldUser, …)
 * @param waitStatus exit_code as slurmrestd 22.05 reports it: the raw wait status (code &lt;&lt; 8, or the signal)
 * @param comment    the job's comment, where the backend notes a stop request ({@link #STOP_MARK})
 */
record SlurmJobState(String state, String reason, long waitStatus, String partition, String nodes, String gres,
                     String comment) {
    /** Written into the job's comment when a checkpoint-and-stop was asked for: the epoch second after which the run is killed. */
    static final String STOP_MARK = "continuum-stop-deadline=";
    private static final Pattern GPU_IDS = Pattern.compile("gpu(?::[^(]*)?\\(IDX:([0-9,\\-]+)\\)");

    Optional<Instant> stopDeadline() {
        if (comment == null || !comment.startsWith(STOP_MARK)) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.ofEpochSecond(Long.parseLong(comment.substring(STOP_MARK.length()).strip())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    boolean running() {
        return "RUNNING".equals(state) || "CONFIGURING".equals(state) || "COMPLETING".equals(state);
    }

    BackendJobStatus toStatus(String site, int gpus, Optional<Progress> progress) {
        Placement placement = new Placement(site, partition == null ? "" : partition, gpus,
                nodes == null || nodes.isBlank() ? List.of() : List.of(nodes.split(",")), gpuIds(gres));
        return switch (state == null ? "" : state) {
            case "PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "SUSPENDED" -> new BackendJobStatus.Pending(reason);
            case "RUNNING", "CONFIGURING", "COMPLETING", "SIGNALING", "STAGE_OUT", "RESIZING" ->
                stopDeadline().isPresent()
                    ? new BackendJobStatus.Stopping(placement, progress)
                    : new BackendJobStatus.Running(placement, progress);
            case "COMPLETED" -> new BackendJobStatus.Succeeded(progress);
            case "CANCELLED" -> stopDeadline().isPresent()
                ? new BackendJobStatus.Killed("did not checkpoint and exit within the grace period", progress)
                : new BackendJobStatus.Cancelled();
            case "TIMEOUT", "DEADLINE" -> new BackendJobStatus.Killed("Slurm's time limit", progress);
            case "PREEMPTED" -> new BackendJobStatus.Killed("preempted by Slurm", progress);
            case "NODE_FAIL", "BOOT_FAIL" -> new BackendJobStatus.Lost("Slurm: " + state + " (" + reason + ")");
            default -> exited(waitStatus, reason, progress);
        };
    }

    /** A job that ended on its own: 0 succeeded, the protocol's code checkpointed, anything else failed. */
    static BackendJobStatus exited(long waitStatus, String reason, Optional<Progress> progress) {
        int signal = (int) (waitStatus & 0x7f);
        int code = (int) ((waitStatus >> 8) & 0xff);
        if (signal != 0) {
            return new BackendJobStatus.Failed(128 + signal, "killed by signal " + signal + " (" + reason + ")", progress);
        }
        if (code == 0) {
            return new BackendJobStatus.Succeeded(progress);
        }
        if (code == CheckpointProtocol.EXIT_CHECKPOINTED) {
            return new BackendJobStatus.Checkpointed(progress);
        }
        return new BackendJobStatus.Failed(code, "exited with " + code + (reason == null ? "" : " (" + reason + ")"), progress);
    }

    /** GPU indexes from gres_detail, e.g. {@code gpu(IDX:0-1)} or {@code gpu:a100:2(IDX:1,3)}. */
    static List<String> gpuIds(String gres) {
        List<String> ids = new ArrayList<>();
        if (gres == null) {
            return ids;
        }
        Matcher m = GPU_IDS.matcher(gres);
        while (m.find()) {
            for (String part : m.group(1).split(",")) {
                int dash = part.indexOf('-');
                if (dash < 0) {
                    ids.add(part);
                } else {
                    int from = Integer.parseInt(part.substring(0, dash));
                    int to = Integer.parseInt(part.substring(dash + 1));
                    for (int i = from; i <= to; i++) {
                        ids.add(Integer.toString(i));
                    }
                }
            }
        }
        return ids;
    }

    static String joined(List<String> values) {
        return values == null ? "" : String.join(",", values);
    }

    static List<String> split(String csv) {
        return csv == null || csv.isBlank() ? List.of() : Arrays.asList(csv.split(","));
    }
}
