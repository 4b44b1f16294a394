package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.auth.keycloak.KeycloakServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user whose local Maven repository is not ~/.m2 (settings.xml localRepository, -Dmaven.repo.local): `up` finds
 * Keycloak's distribution beside its own jar, where the build copied it, and unpacks it. Stops once it has.
 */
class KeycloakBesideUpIT {

    @Test
    void shouldUnpackKeycloakFromBesideTheRunnerJarWhenHomeHasNoMavenRepository(@TempDir Path tmp) throws Exception {
        Path runner;
        try (var files = Files.list(Path.of("target"))) {
            runner = files.filter(p -> p.toString().endsWith("-runner.jar")).findFirst()
                    .orElseThrow(() -> new AssertionError("deploy runner jar is not built"));
        }
        assertThat(Path.of("target/keycloak")).as("the build copies the zip beside up's jar").isDirectoryContaining("glob:**.zip");
        Path home = Files.createDirectories(tmp.resolve("home"));
        Path output = tmp.resolve("up.txt");
        ProcessBuilder builder = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", runner.toAbsolutePath().toString(), "--port", String.valueOf(freePort()), "--keycloak-port", String.valueOf(freePort()), "--data-dir", tmp.resolve("data").toString(),
                "--no-edge", "--no-example"))
                .directory(Path.of("").toAbsolutePath().getParent().toFile())
                .redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("JAVA_TOOL_OPTIONS", "-Duser.home=" + home);
        builder.environment().remove("CONTINUUM_AUTH_ISSUER");
        builder.environment().remove("CONTINUUM_CACHE_DIR");
        builder.environment().remove(KeycloakServer.ZIP_ENV);
        Process up = builder.start();
        Path unpacked = home.resolve(".cache/continuum/keycloak-" + KeycloakServer.VERSION + "/.unpacked");
        try {
            try {
                Awaitility.await("Keycloak unpacked into the new home's cache, or up ended").atMost(Duration.ofMinutes(4))
                        .pollInterval(Duration.ofMillis(500)).until(() -> Files.exists(unpacked) || !up.isAlive());
            } catch (ConditionTimeoutException slow) {
                // the assertions below say what up printed
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            assertThat(text).doesNotContain("distribution not found");
            assertThat(unpacked).as("Keycloak unpacked into the new home's cache; up said:%n%s", text).exists();
        } finally {
            up.destroy();
            if (!up.waitFor(60, TimeUnit.SECONDS)) {
                up.destroyForcibly();
            }
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
