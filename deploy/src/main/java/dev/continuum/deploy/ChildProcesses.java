package dev.continuum.deploy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * The Java child processes one part of {@code continuum up} starts, each with its log in one
 * directory; {@link #close()} stops them newest first, so a process goes before what it leans on.
 */
final class ChildProcesses implements AutoCloseable {

    private final Path logs;
    private final List<Process> processes = new ArrayList<>();

    ChildProcesses(Path logs) {
        this.logs = logs;
    }

    /** {@code java -jar JAR ARGS}, output to {@code <logs>/<name>.log}. */
    Process launch(String name, Path jar, List<String> args, Map<String, String> env) throws IOException {
        return launch(name, List.of(), jar, args, env);
    }

    /** {@code java JVM_OPTIONS -jar JAR ARGS}, output to {@code <logs>/<name>.log}. */
    Process launch(String name, List<String> jvmOptions, Path jar, List<String> args, Map<String, String> env)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(java()));
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        command.addAll(args);
        return start(name, command, env);
    }

    /** {@code java -cp JAR MAIN ARGS}, for a second entry point of a runner jar. */
    Process launchMain(String name, Path jar, String mainClass, List<String> args, Map<String, String> env) throws IOException {
        List<String> command = new ArrayList<>(List.of(java(), "-cp", jar.toString(), mainClass));
        command.addAll(args);
        return start(name, command, env);
    }

    /**
     * Starts {@code command}; its environment is up's, with the engine's trace collector as service
     * {@code continuum-<name>} ({@link ChildTraces}), then {@code env} over both.
     */
    private Process start(String name, List<String> command, Map<String, String> env) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(log(name).toFile()));
        builder.environment().putAll(ChildTraces.environment("continuum-" + name, System.getenv()));
        builder.environment().putAll(env);
        Process p = builder.start();
        processes.add(p);
        return p;
    }

    Path log(String name) {
        return logs.resolve(name + ".log");
    }

    /**
     * Polls {@code ready} (an {@link IOException} counts as "not yet") until it says yes; fails when
     * {@code process} (logged as {@code name}) exits first, or when {@code limit} passes without
     * {@code awaited} (e.g. "the gateways to come online").
     */
    void await(Process process, String name, String awaited, Duration limit, Callable<Boolean> ready) throws Exception {
        Instant deadline = Instant.now().plus(limit);
        while (Instant.now().isBefore(deadline)) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited (code " + process.exitValue() + "); see " + log(name));
            }
            try {
                if (ready.call()) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("waited " + limit.toSeconds() + " s in vain for " + awaited + "; see the logs in " + logs);
    }

    /** The runner jar a module built into {@code target}, if it was built. */
    static Optional<Path> runner(Path target, String prefix) throws IOException {
        if (!Files.isDirectory(target)) {
            return Optional.empty();
        }
        try (var files = Files.list(target)) {
            return files.filter(p -> p.getFileName().toString().startsWith(prefix)
                    && p.getFileName().toString().endsWith("-runner.jar")).findFirst().map(Path::toAbsolutePath);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Newest first; SIGTERM, then SIGKILL after 20 s. */
    @Override
    public void close() {
        for (Process p : processes.reversed()) {
            p.destroy();
            try {
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                p.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        processes.clear();
    }
}
