package dev.continuum.provider.transfer.provider;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.transfer.testing.Http;
import dev.continuum.provider.transfer.testing.Trees;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the provider as its own process (as in production), kills it with SIGKILL in the middle of
 * a transfer, starts it again on the same state directory and checks that the same action
 * finishes with identical content, without resending the chunks verified before the kill.
 */
class ProviderCrashTest {

    private static final long MIB = 1024 * 1024;
    private static final Pattern LISTENING = Pattern.compile("listening on (http://[^ ]+:\\d+)(/\\S*)/\\{");

    @TempDir Path tmp;
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void killAll() {
        processes.forEach(Process::destroyForcibly);
    }

    private String startProvider(Path endpoints, Path state) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(java, "-cp", classpath, "-Xmx256m",
                "dev.continuum.provider.transfer.TransferProviderMain",
                "--endpoints", endpoints.toString(), "--state", state.toString(), "--port", "0",
                "--parallelism", "2", "--chunk-mib", "5", "--max-mib-per-second", "40")
                .redirectErrorStream(true).start();
        processes.add(p);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> url = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line; (line = out.readLine()) != null; ) {
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                        Thread drain = new Thread(() -> out.lines().forEach(l -> { }));
                        drain.setDaemon(true);
                        drain.start();
                        return m.group(1) + m.group(2);
                    }
                }
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            throw new IllegalStateException("provider exited before listening");
        });
        return url.get(60, TimeUnit.SECONDS);
    }

    @Test
    void shouldCompleteWithIdenticalContentAfterKillMinus9AndRestart() throws Exception {
        Trees.file(tmp.resolve("gateway/run/raw-1.bin"), 90 * MIB, 1);
        Trees.file(tmp.resolve("gateway/run/raw-2.bin"), 70 * MIB + 17, 2);
        Trees.file(tmp.resolve("gateway/run/meta/info.json"), 512, 3);
        Path endpoints = tmp.resolve("endpoints.json");
        Files.writeString(endpoints, """
                {"endpoints": [
                  {"id": "gateway-1", "type": "directory", "root": "gateway", "owner": "local:anonymous"},
                  {"id": "dc", "type": "directory", "root": "dc", "owner": "local:anonymous"}]}""");
        Path state = tmp.resolve("state");

        Http http = new Http(startProvider(endpoints, state));
        Http.Answer started = http.run("/transfer", ProviderJson.mapper().readTree("""
                {"source_endpoint_id": "gateway-1", "destination_endpoint_id": "dc",
                 "transfer_items": [{"source_path": "/run", "destination_path": "/archive/run", "recursive": true}]}"""), null);
        assertThat(started.status()).isEqualTo(202);
        String id = started.json().get("action_id").asText();

        JsonNode midway = waitForProgress(http, id, 60 * MIB);
        assertThat(midway.get("status").asText()).isEqualTo("ACTIVE");
        assertThat(midway.at("/details/bytes_total").asLong()).isEqualTo(160 * MIB + 17 + 512);
        assertThat(midway.at("/details/rate_bytes_per_second").asLong()).isPositive();
        assertThat(midway.at("/details/eta_seconds").isNumber()).isTrue();

        processes.get(0).destroyForcibly().waitFor(10, TimeUnit.SECONDS);   // SIGKILL: no shutdown hook runs
        assertThat(tmp.resolve("dc/archive/run/raw-2.bin")).doesNotExist();

        Http restarted = new Http(startProvider(endpoints, state));
        JsonNode done = restarted.await("/transfer", id, null, Duration.ofSeconds(120));

        assertThat(done.get("status").asText()).as("%s", done).isEqualTo("SUCCEEDED");
        assertThat(Trees.digest(tmp.resolve("dc/archive/run"))).isEqualTo(Trees.digest(tmp.resolve("gateway/run")));
        long resumed = done.at("/details/bytes_resumed").asLong() + 0;
        long skippedFileBytes = done.at("/details/files_skipped").asLong() > 0 ? 1 : 0;
        assertThat(resumed + skippedFileBytes).as("verified bytes from before the kill were not sent again").isPositive();
        JsonNode log = restarted.get("/transfer/" + id + "/log", null).json().get("entries");
        assertThat(StreamSupport.stream(log.spliterator(), false).map(e -> e.get("code").asText()))
                .contains("TransferAccepted", "Progress", "TransferResumed", "TransferSucceeded");
    }

    private static JsonNode waitForProgress(Http http, String id, long bytes) {
        return Awaitility.await("transfer " + id + " to move " + bytes + " bytes or end").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50)).until(() -> http.get("/transfer/" + id + "/status", null).json(),
                        last -> last.at("/details/bytes_transferred").asLong() >= bytes
                                || !last.get("status").asText().equals("ACTIVE"));
    }
}
