package dev.continuum.placement.service.support;

import dev.continuum.edge.broker.Brokers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real gateway process ({@code EdgeGatewayMain}, the runtime a device runs, with the real ONNX model), on the test
 * JVM's class path. {@link #freeze} stops it dead (SIGSTOP: no heartbeat, no work, its connection left to time out
 * as a crashed device's would), {@link #kill} ends it without a clean stop.
 */
public final class GatewayProcess implements AutoCloseable {

    private final String id;
    private final Process process;
    private final Path dataDir;

    private GatewayProcess(String id, Process process, Path dataDir) {
        this.id = id;
        this.process = process;
        this.dataDir = dataDir;
    }

    /** Starts {@code id} in {@code role} ({@code edge} or {@code datacenter}) with {@code model} deployed as ocr-cls@1. */
    public static GatewayProcess start(String id, String role, Brokers.Broker broker, String topicRoot, String bootstrapToken,
                                       Path stateDir, Path model) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-cp", System.getProperty("java.class.path"),
                "dev.continuum.edge.gateway.app.EdgeGatewayMain", "--device-id", id, "--broker", broker.host() + ":" + broker.port(),
                "--state-dir", stateDir.toString(), "--topic-root", topicRoot, "--heartbeat-seconds", "1",
                "--keep-alive-seconds", "2", "--role", role, "--model", "ocr-cls@1=" + model));
        Path log = Path.of("target", id + ".log");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("CONTINUUM_BOOTSTRAP_TOKEN", bootstrapToken);
        Path data = Files.createDirectories(stateDir.resolve("data"));
        return new GatewayProcess(id, pb.start(), data);
    }

    public String id() {
        return id;
    }

    /** Where its tasks' {@code input_ref} files are read from. */
    public Path dataDir() {
        return dataDir;
    }

    public void freeze() throws IOException, InterruptedException {
        signal("-STOP");
    }

    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    private void signal(String signal) throws IOException, InterruptedException {
        new ProcessBuilder("kill", signal, String.valueOf(process.pid())).inheritIO().start().waitFor(5, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
        if (process.isAlive()) {
            signal("-CONT");
            process.destroy(); // a clean stop: it publishes its offline status
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
        }
    }
}
