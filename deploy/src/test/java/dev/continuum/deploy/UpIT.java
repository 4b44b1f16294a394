package dev.continuum.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's run command on a machine with nothing running: `up --exit` starts an embedded
 * PostgreSQL and the engine, runs the example flow, prints its id, output and the API URL, and
 * stops everything again. Run twice on one data directory, the second start finds the first's data.
 */
class UpIT {

    @Test
    void shouldBringPlatformUpRunExampleToSuccessAndKeepDataAcrossRestarts(@TempDir Path dataDir) throws Exception {
        String first = up(dataDir);
        assertThat(first).contains("Continuum API:  http://127.0.0.1:")
                .containsPattern("Run:\\s+[0-9a-f-]{36} started")
                .contains("finished: SUCCEEDED")
                .contains("\"said\" : \"Hello, Continuum!\"");
        assertThat(Files.isDirectory(dataDir.resolve("postgres"))).isTrue();

        String second = up(dataDir);
        assertThat(second).contains("finished: SUCCEEDED");
    }

    private static String up(Path dataDir) throws IOException, InterruptedException {
        Path repo = Path.of("").toAbsolutePath().getParent();
        Path runner = Files.list(Path.of("target")).filter(p -> p.toString().endsWith("-runner.jar")).findFirst()
                .orElseThrow(() -> new AssertionError("deploy runner jar is not built"));
        Path output = dataDir.resolve("up-" + System.nanoTime() + ".txt");
        Process up = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", runner.toAbsolutePath().toString(), "--port", String.valueOf(freePort()),
                "--data-dir", dataDir.toString(), "--exit"))
                .directory(repo.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        up.getOutputStream().close();
        boolean done = up.waitFor(4, TimeUnit.MINUTES);
        String text = Files.readString(output, StandardCharsets.UTF_8);
        if (!done) {
            up.destroyForcibly();
        }
        System.out.println(text);
        assertThat(done).as("up finished in time").isTrue();
        assertThat(up.exitValue()).as("up exit code; output:\n" + text).isZero();
        return text;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
