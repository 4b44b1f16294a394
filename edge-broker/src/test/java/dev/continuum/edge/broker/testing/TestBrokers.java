package dev.continuum.edge.broker.testing;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.EmbeddedBrokerMain;
import dev.continuum.edge.protocol.Topics;
import org.awaitility.core.ConditionTimeoutException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;

import static org.awaitility.Awaitility.await;

/**
 * The broker the tests use: by default the embedded broker of {@code up} (Moquette, {@link EmbeddedBrokerMain}) in a
 * process of its own, one per test JVM — the only broker a bare machine has. {@code -Dtest.broker=127.0.0.1:1883} runs the tests against another broker (the
 * machine's Mosquitto, for interoperability); it must answer, there is no silent fallback. Each test gets its own topic
 * root, so tests (and other users of a shared Mosquitto) never see each other's messages. A stock Mosquitto leaves
 * Nagle on ({@code set_tcp_nodelay false}): every exchange through it takes ~40 ms more than through the embedded
 * broker — time figures name the broker they were measured on.
 *
 * <p>One broker for the whole JVM, not one per class loader: a Quarkus test profile and the test class it configures
 * are loaded by different class loaders, each with its own statics, and two brokers would leave the service under test
 * and the test's gateways talking past each other. The first to start it writes its address to a system property;
 * every later caller, in whatever class loader, uses that address.
 *
 * <p>Its own process, as {@code up} runs it (in the inference provider's), on the test class path without its SLF4J
 * logging backends: Moquette 0.17 empties the payload of every message it sends while its logger has TRACE on
 * ({@code DebugUtils.payload2Str} sets the reader index to the length), and a Quarkus test class path brings JBoss
 * LogManager, under which it does — every gateway's registration reached the registrar empty. Without a backend SLF4J
 * logs nothing, and the broker runs as it does for users.
 */
public final class TestBrokers {

    /**
     * The test broker chosen by the user: {@code host:port}, or {@code embedded} (the default). Not under
     * {@code continuum.}: the engine validates every system property under its configuration root, and a Quarkus test
     * started in a JVM holding an unknown {@code continuum.*} property fails to start.
     */
    public static final String CHOICE = "test.broker";
    /** Where the JVM's test broker listens, written once by the class loader that started or chose it. */
    private static final String ADDRESS = "test.broker.address";

    private static Brokers.Broker shared;

    private TestBrokers() {}

    public static synchronized Brokers.Broker shared() {
        if (shared == null) {
            // the system properties are one object across class loaders: the lock that makes "first one starts it" hold
            synchronized (System.getProperties()) {
                String known = System.getProperty(ADDRESS);
                shared = known != null ? Known.parse(known) : choose();
                System.setProperty(ADDRESS, Known.format(shared));
            }
        }
        return shared;
    }

    private static Brokers.Broker choose() {
        String choice = System.getProperty(CHOICE, "embedded").trim();
        Brokers.Broker broker;
        if (choice.isEmpty() || choice.equals("embedded")) {
            broker = startProcess();
        } else {
            int colon = choice.lastIndexOf(':');
            if (colon < 1) {
                throw new IllegalArgumentException("-D" + CHOICE + " must be 'embedded' or host:port, not '" + choice + "'");
            }
            String host = choice.substring(0, colon);
            int port = Integer.parseInt(choice.substring(colon + 1));
            if (!Brokers.answers(host, port)) {
                throw new IllegalStateException("-D" + CHOICE + "=" + choice + " names a broker that does not answer;"
                        + " start it, or leave the property out to use the embedded broker");
            }
            broker = new Known(host, port, false);
        }
        System.out.println("[test broker] " + (broker.embedded() ? "embedded broker (Moquette, own process)" : "chosen broker")
                + " at " + broker.host() + ":" + broker.port());
        return broker;
    }

    /**
     * {@link EmbeddedBrokerMain} on this test JVM's class path, stopped when this JVM ends (by a shutdown hook, and by
     * its standard input closing should this JVM be killed).
     */
    private static Brokers.Broker startProcess() {
        int port = Brokers.freePort();
        String java = ProcessHandle.current().info().command().orElse("java");
        try {
            Path log = Files.createTempFile("continuum-test-broker-", ".log");
            Process process = new ProcessBuilder(java, "-Xmx512m", "-cp", classPathWithoutLoggingBackends(),
                    EmbeddedBrokerMain.class.getName(), "--port", Integer.toString(port), "--until-stdin-closes")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "test-broker-stop"));
            try {
                await("the test broker answers on port " + port).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50))
                        .until(() -> Brokers.answers("127.0.0.1", port) || !process.isAlive());
            } catch (ConditionTimeoutException slow) {
                // the check below says so, with the broker's output
            }
            if (!Brokers.answers("127.0.0.1", port)) {
                process.destroyForcibly();
                throw new IllegalStateException("the test broker did not start on port " + port + "; its output: "
                        + Files.readString(log));
            }
            return new Known("127.0.0.1", port, true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the test broker", e);
        }
    }

    private static String classPathWithoutLoggingBackends() {
        return java.util.Arrays.stream(System.getProperty("java.class.path").split(java.io.File.pathSeparator))
                .filter(entry -> !LOGGING_BACKEND.matcher(Path.of(entry).getFileName().toString()).find())
                .collect(java.util.stream.Collectors.joining(java.io.File.pathSeparator));
    }

    /** SLF4J providers and the logging systems behind them (the API stays: without a provider it logs nothing). */
    private static final java.util.regex.Pattern LOGGING_BACKEND =
            java.util.regex.Pattern.compile("^(slf4j-(?!api)|jboss-logmanager|logback-|log4j-slf4j|reload4j)");

    /** A broker another class loader started or chose, or a process we started: used, never stopped from here. */
    private record Known(String host, int port, boolean embedded) implements Brokers.Broker {
        static Known parse(String text) {
            String[] parts = text.split(":");
            return new Known(parts[0], Integer.parseInt(parts[1]), Boolean.parseBoolean(parts[2]));
        }

        static String format(Brokers.Broker b) {
            return b.host() + ":" + b.port() + ":" + b.embedded();
        }

        @Override public void close() {}
    }

    public static Topics freshTopics() {
        return new Topics("continuum-test-" + UUID.randomUUID().toString().substring(0, 8));
    }

    public static String freshId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
