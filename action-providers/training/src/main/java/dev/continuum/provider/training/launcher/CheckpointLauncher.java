package dev.continuum.provider.training.launcher;

import dev.continuum.provider.training.backend.CheckpointProtocol;
import dev.continuum.provider.training.backend.Checkpoints;
import dev.continuum.provider.training.backend.Progress;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Gives the checkpoint protocol to a script that cannot handle signals: the script keeps its state
 * in {@code CONTINUUM_STATE_DIR} (replacing files by rename, so the directory is always consistent)
 * and reads it at start; the launcher copies that directory into a checkpoint every
 * {@code --every-seconds}, restores the newest checkpoint into it before starting the script, and on
 * SIGUSR1/SIGTERM stops the script, takes a last checkpoint and exits 85.
 *
 * <p>{@code java -cp continuum-training-provider-*-runner.jar
 * dev.continuum.provider.training.launcher.CheckpointLauncher [--every-seconds 60] -- script args...}
 */
public final class CheckpointLauncher {
    private static volatile boolean stopRequested;
    private static volatile long lastStep;

    private CheckpointLauncher() {
    }

    public static void main(String[] args) throws Exception {
        int dash = Arrays.asList(args).indexOf("--");
        if (dash < 0 || dash == args.length - 1) {
            System.err.println("usage: CheckpointLauncher [--every-seconds 60] -- command [args...]");
            System.exit(2);
        }
        double every = dash >= 2 && args[0].equals("--every-seconds") ? Double.parseDouble(args[1]) : 60;
        List<String> command = List.of(args).subList(dash + 1, args.length);
        Path checkpoints = Path.of(System.getenv().getOrDefault(CheckpointProtocol.ENV_CHECKPOINT_DIR, "checkpoints"));
        Path state = checkpoints.resolve(".state");
        Files.createDirectories(checkpoints);
        restore(checkpoints, state);
        for (String signal : new String[] {CheckpointProtocol.SIGNAL_LOCAL, CheckpointProtocol.SIGNAL_KUBERNETES}) {
            sun.misc.Signal.handle(new sun.misc.Signal(signal), s -> stopRequested = true);
        }
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("CONTINUUM_STATE_DIR", state.toString());
        Process child = pb.start();
        Thread output = Thread.ofVirtual().start(() -> forward(child));
        long next = System.nanoTime() + (long) (every * 1e9);
        while (!child.waitFor(50, TimeUnit.MILLISECONDS)) {
            if (stopRequested) {
                child.destroyForcibly().waitFor();
                output.join(5000);
                snapshot(state, checkpoints);
                System.out.println("checkpointed the script's state at step " + lastStep + "; exiting "
                        + CheckpointProtocol.EXIT_CHECKPOINTED);
                System.exit(CheckpointProtocol.EXIT_CHECKPOINTED);
            }
            if (System.nanoTime() >= next) {
                snapshot(state, checkpoints);
                next = System.nanoTime() + (long) (every * 1e9);
            }
        }
        // the script's last lines may still be in the pipe: pass them on before exiting
        output.join(5000);
        System.out.flush();
        System.exit(child.exitValue());
    }

    private static void forward(Process child) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = in.readLine()) != null) {
                System.out.println(line);
                Progress.parse(line).ifPresent(p -> lastStep = p.step());
            }
        } catch (IOException e) {
            // the script is gone; its exit code tells the rest
        }
    }

    /** The state directory as it is now, as checkpoint {@code ckpt-<last reported step>} (copy, then rename). */
    static synchronized void snapshot(Path state, Path checkpoints) throws IOException {
        long step = lastStep;
        Path target = checkpoints.resolve(Checkpoints.name(step));
        if (Files.exists(target) || !Files.isDirectory(state)) {
            return;
        }
        Path tmp = checkpoints.resolve(Checkpoints.temporaryName(step));
        copyTree(state, tmp);
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void restore(Path checkpoints, Path state) throws IOException {
        delete(state);
        Optional<Checkpoints.Checkpoint> newest = Checkpoints.newest(checkpoints);
        if (newest.isPresent()) {
            copyTree(newest.get().path(), state);
            lastStep = newest.get().step();
            System.out.println("restored the script's state from " + newest.get().path().getFileName());
        } else {
            Files.createDirectories(state);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        for (Path p : list(from)) {
            Path dest = to.resolve(from.relativize(p).toString());
            if (Files.isDirectory(p)) {
                Files.createDirectories(dest);
            } else {
                try {
                    Files.copy(p, dest, StandardCopyOption.REPLACE_EXISTING);
                } catch (java.nio.file.NoSuchFileException renamedMeanwhile) {
                    // the script replaced this file by rename while we copied: its new name is in the list too
                }
            }
        }
    }

    /** The tree's paths; a walk meeting a file the script is renaming right then is tried again. */
    private static List<Path> list(Path dir) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try (Stream<Path> tree = Files.walk(dir)) {
                return tree.toList();
            } catch (UncheckedIOException e) {
                if (attempt == 5) {
                    throw e.getCause();
                }
            }
        }
    }

    private static void delete(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(dir)) {
            tree.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
