package dev.continuum.edge.app;

import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.resources.NvidiaSmi;
import dev.continuum.edge.store.TaskSpool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Everything one gateway needs to know. {@code deviceId} is also its MQTT client id, so the broker
 * keeps one persistent session per device across restarts. {@code dataDir} is the only directory a
 * task's {@code input_ref} may read from (default {@code <stateDir>/data}).
 */
public record GatewayConfig(String deviceId, String brokerHost, int brokerPort, Topics topics, Path stateDir,
                            String bootstrapToken, Duration heartbeatInterval, int keepAliveSeconds,
                            TaskSpool.Limits spoolLimits, int maxBatch, boolean preferGpu,
                            Supplier<List<GpuInfo>> gpuSource, Path dataDir) {

    public GatewayConfig {
        Topics.checkId(deviceId);
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1");
        }
    }

    public static GatewayConfig of(String deviceId, String brokerHost, int brokerPort, Path stateDir, String bootstrapToken) {
        NvidiaSmi smi = NvidiaSmi.onPath();
        return new GatewayConfig(deviceId, brokerHost, brokerPort, Topics.standard(), stateDir, bootstrapToken,
                Duration.ofSeconds(5), 10, TaskSpool.Limits.defaults(), 16, true, smi::gpus,
                stateDir.resolve("data"));
    }

    public GatewayConfig withTopics(Topics value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, value, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir);
    }

    public GatewayConfig withBroker(String host, int port) {
        return new GatewayConfig(deviceId, host, port, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir);
    }

    public GatewayConfig withHeartbeat(Duration interval, int keepAlive) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, interval,
                keepAlive, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir);
    }

    public GatewayConfig withSpoolLimits(TaskSpool.Limits value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, value, maxBatch, preferGpu, gpuSource, dataDir);
    }

    public GatewayConfig withMaxBatch(int value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, value, preferGpu, gpuSource, dataDir);
    }

    public GatewayConfig withGpus(Supplier<List<GpuInfo>> value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, value, dataDir);
    }

    public GatewayConfig withDataDir(Path value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, value);
    }
}
