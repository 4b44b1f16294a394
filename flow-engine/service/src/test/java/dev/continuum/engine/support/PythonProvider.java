package dev.continuum.engine.support;

import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A provider written with the Python kit (action-providers/python), run as a process of Debian's python3 that a test
 * may kill with SIGKILL and start again on the same port and SQLite file. Its output goes to a file shown on failure.
 */
public final class PythonProvider implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final List<String> command;
    private final Map<String, String> env;
    private final Path output;
    private final int port;
    private Process process;

    private PythonProvider(List<String> command, Map<String, String> env, Path output, int port) {
        this.command = command;
        this.env = env;
        this.output = output;
        this.port = port;
    }

    /**
     * Starts {@code script} (a path under action-providers/python) with {@code --port port --db dir/actions.sqlite3}
     * and waits until it answers {@code GET /health}.
     */
    public static PythonProvider start(String script, int port, Path dir, Map<String, String> env) {
        Path kit = kit().orElseThrow(() -> new IllegalStateException("action-providers/python not found above " + Path.of("").toAbsolutePath()));
        List<String> command = List.of(python().orElseThrow(() -> new IllegalStateException(why())), kit.resolve(script).toString(),
                "--port", Integer.toString(port), "--db", dir.resolve("actions.sqlite3").toString());
        PythonProvider provider = new PythonProvider(command, Map.copyOf(env), dir.resolve("provider.log"), port);
        provider.restart();
        return provider;
    }

    /** Starts the process (again, after {@link #kill}) and waits until it answers. */
    public void restart() {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
        builder.environment().putAll(env);
        try {
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        try {
            await("the Python provider answers on port " + port).atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(this::healthy);
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException(e.getMessage() + ":\n" + tail(), e);
        }
    }

    /** Answers 200 on /health; a provider that exited fails the wait at once, with its output. */
    private boolean healthy() throws InterruptedException {
        if (!process.isAlive()) {
            throw new IllegalStateException("the Python provider exited with " + process.exitValue() + ":\n" + tail());
        }
        try {
            return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException notYet) {
            return false;
        }
    }

    public long pid() {
        return process.pid();
    }

    /** SIGKILL: nothing is flushed, no handler runs. */
    public void kill() {
        process.destroyForcibly();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the Python provider (pid " + process.pid() + ") did not die after SIGKILL");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    kill();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /** What the process printed (both runs, when restarted), for failure messages. */
    public String tail() {
        try {
            List<String> all = Files.readAllLines(output, StandardCharsets.UTF_8);
            return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
        } catch (IOException e) {
            return "(cannot read " + output + ": " + e.getMessage() + ")";
        }
    }

    /** A port free now, for a provider whose URL must be known before the engine starts. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A free port kept in a system property, so every class loader of the JVM (Quarkus's and the tests') gets the same. */
    public static int portOncePerJvm(String property) {
        synchronized (System.getProperties()) {
            String known = System.getProperty(property);
            if (known == null) {
                known = Integer.toString(freePort());
                System.setProperty(property, known);
            }
            return Integer.parseInt(known);
        }
    }

    /** The kit's folder, found above the working directory (a module's, under Maven). */
    static java.util.Optional<Path> kit() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path kit = dir.resolve("action-providers/python");
            if (Files.isRegularFile(kit.resolve("pyproject.toml"))) {
                return java.util.Optional.of(kit);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * A python3 that can import the kit's Debian modules: $CONTINUUM_PYTHON, else Debian's /usr/bin/python3 (another
     * python3 earlier on the PATH, e.g. pyenv's, lacks Debian's packages), else python3 on the PATH.
     */
    static java.util.Optional<String> python() {
        List<String> candidates = new ArrayList<>();
        if (System.getenv("CONTINUUM_PYTHON") != null) {
            candidates.add(System.getenv("CONTINUUM_PYTHON"));
        }
        candidates.add("/usr/bin/python3");
        candidates.add("python3");
        for (String candidate : candidates) {
            try {
                Process probe = new ProcessBuilder(candidate, "-c", "import sqlite3, jwt, cryptography")
                        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
                if (probe.waitFor(20, TimeUnit.SECONDS) && probe.exitValue() == 0) {
                    return java.util.Optional.of(candidate);
                }
                probe.destroyForcibly();
            } catch (IOException e) {
                // not installed: try the next
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return java.util.Optional.empty();
            }
        }
        return java.util.Optional.empty();
    }

    static String why() {
        return "needs python3 with Debian's python3-jwt and python3-cryptography (apt-get install python3-jwt "
                + "python3-cryptography; .ci/python-tests installs them) and action-providers/python";
    }

    /**
     * Skips the test class, saying why, when no usable python3 or kit is here; with CONTINUUM_REQUIRE_PYTHON set (as
     * in CI) runs it anyway, so it fails on the missing piece instead of passing unseen.
     */
    public static final class Usable implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            if (System.getenv("CONTINUUM_REQUIRE_PYTHON") != null) {
                return ConditionEvaluationResult.enabled("CONTINUUM_REQUIRE_PYTHON is set");
            }
            return python().isPresent() && kit().isPresent() ? ConditionEvaluationResult.enabled("python3 and the kit found")
                    : ConditionEvaluationResult.disabled(why());
        }
    }
}
