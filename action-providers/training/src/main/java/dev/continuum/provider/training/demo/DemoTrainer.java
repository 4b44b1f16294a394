package dev.continuum.provider.training.demo;

import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.Progress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;

/**
 * The demo trainer shipped with Continuum: learns a 3-class classifier of generated 4-feature
 * points ({@link Classifier}) on the CPU, following the checkpoint protocol of docs/training.md:
 * resumes from the newest complete checkpoint, prints {@code CONTINUUM_PROGRESS step= loss=}
 * every step, checkpoints every {@code --checkpoint-every} steps and on SIGUSR1/SIGTERM (then exits
 * 85), and finally writes {@code model.onnx} to CONTINUUM_OUTPUT_DIR.
 *
 * <p>{@code java -cp continuum-training-provider-*-runner.jar dev.continuum.provider.training.demo.DemoTrainer
 * [--steps 400] [--step-millis 0] [--checkpoint-every 50] [--ignore-signals] [--data FILE]}. {@code --data} (or the
 * environment's {@value #ENV_DATA}) names a {@link Dataset} file to learn instead of the generated points. With
 * {@code --ignore-signals} it behaves like a script that cannot handle signals (it still takes
 * its periodic checkpoints). Ranks above 0 have no work: the demo is small enough for one process.
 */
public final class DemoTrainer {
    /** A dataset file to learn, when {@code --data} is not given (a flow sets it in the job's {@code env}). */
    public static final String ENV_DATA = "CONTINUUM_DEMO_DATA";
    private static volatile boolean stopRequested;

    private DemoTrainer() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        int steps = intArg(args, "--steps", 400);
        int stepMillis = intArg(args, "--step-millis", 0);
        int every = intArg(args, "--checkpoint-every", 50);
        boolean ignoreSignals = java.util.Arrays.asList(args).contains("--ignore-signals");
        int rank = Integer.parseInt(env.getOrDefault(CheckpointProtocol.ENV_RANK, "0"));
        int world = Integer.parseInt(env.getOrDefault(CheckpointProtocol.ENV_WORLD_SIZE, "1"));
        if (rank != 0) {
            System.out.println("rank " + rank + " of " + world + ": nothing to do, the demo trains on rank 0");
            return;
        }
        Path checkpoints = Path.of(env.getOrDefault(CheckpointProtocol.ENV_CHECKPOINT_DIR, "checkpoints"));
        Path output = Path.of(env.getOrDefault(CheckpointProtocol.ENV_OUTPUT_DIR, "model"));
        Files.createDirectories(checkpoints);
        for (String signal : new String[] {CheckpointProtocol.SIGNAL_LOCAL, CheckpointProtocol.SIGNAL_KUBERNETES}) {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> {
                if (ignoreSignals) {
                    System.out.println("ignoring SIG" + s.getName());
                } else {
                    stopRequested = true;
                }
            });
        }
        String dataFile = textArg(args, "--data", env.get(ENV_DATA));
        Dataset data = dataFile == null ? Classifier.GENERATED : Dataset.read(Path.of(dataFile));
        System.out.println("learning " + data.labels().length + " points"
                + (dataFile == null ? " (generated)" : " from " + dataFile));
        Classifier model = Classifier.fresh();
        long start = 0;
        Optional<Checkpoints.Checkpoint> newest = Checkpoints.newest(checkpoints);
        if (newest.isPresent()) {
            model = Classifier.read(newest.get().path());
            start = newest.get().step();
            System.out.println("resumed from " + newest.get().path().getFileName() + " (step " + start + ")");
        }
        System.out.println("training with world size " + world + ", CUDA_VISIBLE_DEVICES="
                + env.getOrDefault(CheckpointProtocol.ENV_CUDA_VISIBLE_DEVICES, ""));
        long saved = start;
        for (long step = start + 1; step <= steps; step++) {
            double loss = model.step(data);
            System.out.println(Progress.of(step, loss).line());
            if (step % every == 0) {
                save(model, checkpoints, step);
                saved = step;
            }
            if (stopRequested) {
                if (saved != step) {
                    save(model, checkpoints, step);
                }
                System.out.println("checkpointed at step " + step + " on request; exiting " + CheckpointProtocol.EXIT_CHECKPOINTED);
                System.exit(CheckpointProtocol.EXIT_CHECKPOINTED);
            }
            if (stepMillis > 0) {
                Thread.sleep(stepMillis);
            }
        }
        Files.createDirectories(output);
        Path tmp = output.resolve(".model.onnx.tmp");
        Files.write(tmp, model.onnx());
        Files.move(tmp, output.resolve("model.onnx"), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        System.out.printf("done: accuracy %.3f on the training set, model in %s%n", model.accuracy(data),
                output.resolve("model.onnx"));
    }

    /** Writes under a temporary name, then renames: a reader never sees a half-written checkpoint. */
    static void save(Classifier model, Path dir, long step) throws IOException {
        Path tmp = dir.resolve(Checkpoints.temporaryName(step));
        model.write(tmp);
        Files.move(tmp, dir.resolve(Checkpoints.name(step)), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
        // keep the last three: enough to survive one bad file, small enough to never fill a disk
        var all = Checkpoints.list(dir);
        for (int i = 0; i < all.size() - 3; i++) {
            Files.deleteIfExists(all.get(i).path());
        }
    }

    private static String textArg(String[] args, String name, String fallback) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals(name)) {
                return args[i + 1];
            }
        }
        return fallback;
    }

    private static int intArg(String[] args, String name, int fallback) {
        String value = textArg(args, name, null);
        return value == null ? fallback : Integer.parseInt(value);
    }
}
