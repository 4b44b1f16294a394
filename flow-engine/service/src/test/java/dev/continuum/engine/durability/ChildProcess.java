package dev.continuum.engine.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** A JVM the tests start and may kill with SIGKILL; its output goes to a file shown when something breaks. */
final class ChildProcess {

    private final String name;
    private final Process process;
    private final Path output;

    private ChildProcess(String name, Process process, Path output) {
        this.name = name;
        this.process = process;
        this.output = output;
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> env, Path output) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().putAll(env);
        try {
            return new ChildProcess(name, builder.start(), output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** The same JVM that runs the tests, so child processes need no other Java on the path. */
    static String javaBinary() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    String name() {
        return name;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGKILL on Linux: no shutdown hook runs, nothing is flushed, open transactions are cut off. */
    void kill() {
        process.destroyForcibly();
        awaitExit();
    }

    /** A polite stop (SIGTERM) for cleaning up after a test. */
    void stop() {
        stop(Duration.ofSeconds(10));
    }

    /** A polite stop (SIGTERM), then SIGKILL if the process has not exited within {@code grace}. */
    void stop(Duration grace) {
        process.destroy();
        try {
            if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    private void awaitExit() {
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " (pid " + process.pid() + ") did not die after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The last lines this process printed, for failure messages. */
    String tail(int lines) {
        try {
            List<String> all = Files.readAllLines(output, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(cannot read " + output + ": " + e.getMessage() + ")";
        }
    }
}
