package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The batch script of one run: starts one process per GPU with the checkpoint protocol's environment, passes
 * SIGUSR1 (its own timer's, a grace period before the time limit, or the backend's request) and
 * SIGTERM on to them, exits with rank 0's code, and leaves that code in a file beside the output so that
 * {@code status} can still answer after Slurm forgot the job (MinJobAge).
 */
final class SlurmBatchScript {
    private SlurmBatchScript() {
    }

    static String render(TrainingJobSpec spec, int worldSize, Map<String, String> protocolEnv, String exitFile) {
        long warnAfter = Math.max(1, spec.timeLimit().toSeconds() - spec.gracePeriod().toSeconds());
        String exports = protocolEnv.entrySet().stream()
                .map(e -> "export " + e.getKey() + "=" + quote(e.getValue()))
                .collect(Collectors.joining("\n"));
        String command = spec.commandLine().stream().map(SlurmBatchScript::quote).collect(Collectors.joining(" "));
        return """
                #!/bin/bash
                # Continuum training job %s, attempt %d
                %s
                export CONTINUUM_WORLD_SIZE=%d
                pids=()
                trap 'kill -USR1 "${pids[@]}" 2>/dev/null' USR1
                trap 'kill -TERM "${pids[@]}" 2>/dev/null' TERM
                for rank in $(seq 0 %d); do
                  CONTINUUM_RANK=$rank CONTINUUM_LOCAL_RANK=$rank %s &
                  pids+=($!)
                done
                # --signal=B:USR1@<grace>, done here: slurmrestd 22.05 refuses the B: form ("Invalid SIGNAL specification")
                (sleep %d; kill -USR1 $$) &
                timer=$!
                rc=0
                for i in "${!pids[@]}"; do
                  # wait returns early when a trapped signal arrives: wait again until the process is gone
                  while :; do wait "${pids[$i]}"; s=$?; kill -0 "${pids[$i]}" 2>/dev/null || break; done
                  if [ "$i" -eq 0 ] || [ "$rc" -eq 0 ]; then rc=$s; fi
                done
                kill "$timer" 2>/dev/null
                echo "$rc" > %s.tmp && mv %s.tmp %s
                exit "$rc"
                """.formatted(spec.jobId(), spec.attempt(), exports, worldSize, worldSize - 1, command, warnAfter,
                quote(exitFile), quote(exitFile), quote(exitFile));
    }

    /** The protocol's variables for the whole job; rank and local rank are set per process by the script. */
    static Map<String, String> environment(TrainingJobSpec spec, int worldSize) {
        Map<String, String> env = CheckpointProtocol.environment(spec, worldSize, 0, 0);
        env.remove(CheckpointProtocol.ENV_RANK);
        env.remove(CheckpointProtocol.ENV_LOCAL_RANK);
        return env;
    }

    /** Single-quotes a word for bash. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }

    static List<String> quoteAll(List<String> words) {
        return words.stream().map(SlurmBatchScript::quote).toList();
    }
}
