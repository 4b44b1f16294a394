package dev.continuum.edge.broker.testing;

import static org.awaitility.Awaitility.await;

import dev.continuum.edge.broker.Brokers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A Mosquitto of the test's own (not the machine's shared one) on a free port, from a configuration the test writes:
 * started, waited for until it answers, stopped by {@link #close()}.
 */
public final class OwnMosquitto implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/sbin/mosquitto");

    private final Process process;
    private final int port;

    private OwnMosquitto(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    public static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    /**
     * Starts Mosquitto in {@code dir} listening on 127.0.0.1 and a free port with {@code settings} (the lines after
     * {@code listener}); runs as this user, who can read the test's private files (as root Mosquitto would switch to
     * user mosquitto).
     */
    public static OwnMosquitto start(Path dir, String settings) throws IOException, InterruptedException {
        int port = Brokers.freePort();
        Path conf = Files.writeString(dir.resolve("mosquitto.conf"), "listener " + port + " 127.0.0.1\n" + settings
                + "\npersistence false\nuser " + System.getProperty("user.name") + "\n");
        Path log = dir.resolve("mosquitto.log");
        Process process = new ProcessBuilder(BINARY.toString(), "-c", conf.toString()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        await("mosquitto started (" + log + ")").atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                .until(() -> Brokers.answers("127.0.0.1", port));
        return new OwnMosquitto(process, port);
    }

    public int port() {
        return port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        process.waitFor(10, TimeUnit.SECONDS);
    }
}
