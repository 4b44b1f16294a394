package dev.continuum.engine.support;

import dev.continuum.auth.keycloak.KeycloakServer;
import dev.continuum.provider.training.demo.DemoTrainer;
import dev.continuum.provider.training.provider.TrainingProviderMain;
import org.awaitility.core.ConditionTimeoutException;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * The real training provider (action-providers/training, local backend with 2 GPU slots, sign-in on against the test
 * Keycloak) as its own process from the test's classpath, its output in {@code provider.log} of its work directory.
 */
public final class TrainingProviderProcess implements AutoCloseable {

    private final Process process;
    private final Path work;

    private TrainingProviderProcess(Process process, Path work) {
        this.process = process;
        this.work = work;
    }

    /** Starts it on {@code port} and waits (90 s at most) until it answers its health check. */
    public static TrainingProviderProcess start(int port, Path work) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(java(), "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                TrainingProviderMain.class.getName(), "--port", String.valueOf(port), "--host", "127.0.0.1",
                "--work-dir", work.toString(), "--gpu-slots", "2")
                .redirectErrorStream(true).redirectOutput(work.resolve("provider.log").toFile());
        builder.environment().put("CONTINUUM_AUTH_ENABLED", "true");
        builder.environment().put("CONTINUUM_AUTH_ISSUER", KeycloakServer.shared().issuer());
        TrainingProviderProcess provider = new TrainingProviderProcess(builder.start(), work);
        HttpClient http = HttpClient.newHttpClient();
        try {
            await("the training provider answers its health check on port " + port).atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(200)).ignoreExceptionsInstanceOf(IOException.class)
                    .until(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health")).build(),
                            HttpResponse.BodyHandlers.discarding()) != null);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError(e.getMessage() + ":\n" + Files.readString(work.resolve("provider.log")), e);
        }
        return provider;
    }

    /**
     * A script in the work directory that runs the demo trainer with the arguments it is given, so a flow holds no
     * classpath; exec: the trainer itself gets the provider's SIGUSR1.
     */
    public Path trainerScript() throws IOException {
        Path trainer = work.resolve("train.sh");
        Files.writeString(trainer, "#!/bin/sh\nexec '" + java() + "' -XX:TieredStopAtLevel=1 -cp '"
                + System.getProperty("java.class.path") + "' " + DemoTrainer.class.getName() + " \"$@\"\n");
        return trainer;
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
