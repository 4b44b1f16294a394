package dev.continuum.edge.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.protocol.GpuInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuPollerTest {

    @TempDir
    Path dir;

    private final List<String> logged = new CopyOnWriteArrayList<>();
    private final Logger log = Logger.getLogger(GpuPoller.class.getName());
    private final Handler handler = new Handler() {
        @Override public void publish(LogRecord r) { logged.add(r.getMessage()); }
        @Override public void flush() {}
        @Override public void close() {}
    };

    @BeforeEach
    void listen() {
        log.addHandler(handler);
    }

    @AfterEach
    void stopListening() {
        log.removeHandler(handler);
    }

    @Test
    void shouldSendNoGpusAndSayWhyOnceWhenThereIsNoNvidiaSmi() {
        GpuPoller poller = new GpuPoller(new NvidiaSmi("/nonexistent/nvidia-smi", Duration.ofSeconds(5)), Duration.ofSeconds(5));

        poller.poll();
        poller.poll();
        poller.poll();

        assertThat(poller.get()).isEmpty();
        assertThat(logged).hasSize(1);
        assertThat(logged.getFirst()).startsWith("no GPU found: /nonexistent/nvidia-smi cannot be run");
    }

    @Test
    void shouldSayWhyAgainWhenGpusThatWereFoundAreGone() throws IOException {
        Path flag = dir.resolve("driver-up");
        Files.createFile(flag);
        GpuPoller poller = new GpuPoller(new NvidiaSmi(script("[ -f " + flag + " ] || { echo 'No devices were found'; exit 6; }\n"
                + "echo '0, Tesla T4, 5, 300, 15360, 41, 27.43'").toString(), Duration.ofSeconds(5)), Duration.ofSeconds(5));

        poller.poll();
        List<GpuInfo> found = poller.get();
        Files.delete(flag);
        poller.poll();
        poller.poll();

        assertThat(found).containsExactly(new GpuInfo(0, "Tesla T4", 15360, 300, 5, 41, 27.43));
        assertThat(poller.get()).isEmpty();
        assertThat(logged).hasSize(2);
        assertThat(logged.get(1)).startsWith("no GPU found: " + dir).contains("exited with 6: No devices were found");
    }

    @Test
    void shouldTakeTheFirstReadingAtOnceOnItsOwnThreadWhenStarted() throws IOException {
        Path runs = dir.resolve("runs");
        // each run lists one GPU whose index counts the runs
        Path smi = script("n=$(( $(cat " + runs + " 2>/dev/null || echo 0) + 1 )); echo $n > " + runs + "\n"
                + "echo \"$n, Tesla T4, 5, 300, 15360, 41, 27.43\"");
        try (GpuPoller poller = new GpuPoller(new NvidiaSmi(smi.toString(), Duration.ofSeconds(5)), Duration.ofMillis(50))) {

            poller.start();

            assertThat(Await.until(Duration.ofSeconds(20), () -> !poller.get().isEmpty())).isTrue();
            int first = poller.get().getFirst().index();
            assertThat(Await.until(Duration.ofSeconds(20), () -> poller.get().getFirst().index() != first))
                    .as("a later reading replaces the first").isTrue();
        }
    }

    private Path script(String body) throws IOException {
        Path file = Files.createTempFile(dir, "nvidia-smi", ".sh");
        Files.writeString(file, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwx------"));
        return file;
    }
}
