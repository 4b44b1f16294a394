package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.GpuInfo;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.resources.GpuPoller;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.gateway.resources.NvidiaSmi;
import dev.continuum.edge.gateway.store.TaskSpool;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

/**
 * Everything one gateway needs to know. {@code deviceId} is also its MQTT client id, so the broker
 * keeps one persistent session per device across restarts. {@code dataDir} is the only directory a
 * task's {@code input_ref} may read from (default {@code <stateDir>/data}). {@code durability} says when
 * the spool syncs to disk (default {@link Durability#BROKER}; ADR 0009). The gateway logs in to the broker
 * as its device id with {@code brokerPassword} when set (an operator's own broker, docs/edge.md), else with
 * its device credential, else its bootstrap token (what a broker Continuum starts checks; ADR 0011).
 */
public record GatewayConfig(String deviceId, String brokerHost, int brokerPort, Topics topics, Path stateDir,
                            String bootstrapToken, Duration heartbeatInterval, int keepAliveSeconds,
                            TaskSpool.Limits spoolLimits, int maxBatch, boolean preferGpu,
                            Supplier<List<GpuInfo>> gpuSource, Path dataDir, Durability durability,
                            String brokerPassword, String role, Duration linkAckTimeout, MqttLink.Tls brokerTls) {

    /**
     * How long the link waits for the broker's PUBACK before it counts a message as not delivered; the gateway then
     * publishes it again (results, file events). The wait must cover a busy broker and a slow link: at the first
     * default, 5 s, a loaded machine re-published 3,746 of 10,000 file events while their PUBACKs were still coming
     * (docs/benchmarks.md). A re-published event is recognised by its id and starts no second run, but it is load.
     */
    public static final Duration DEFAULT_LINK_ACK_TIMEOUT = Duration.ofSeconds(60);

    /** When a task may be acknowledged to the broker, and so when the spool must reach the disk. */
    public enum Durability {
        /**
         * Every task is synced before its PUBACK and every result before it is published: the gateway
         * alone never loses work, at two disk syncs per task.
         */
        DISK,
        /**
         * A task is acknowledged once its result is acknowledged by the broker, or once its record is
         * synced — whichever comes first. The disk is synced only when a result cannot be published now
         * (link down), when many acknowledgements are held, and on a clean stop: on the connected path
         * the broker's persistent session keeps an unacknowledged task, and redelivers it after a crash.
         */
        BROKER
    }

    public GatewayConfig {
        Topics.checkId(deviceId);
        role = role == null ? Heartbeat.ROLE_EDGE : role;
        if (!Heartbeat.ROLES.contains(role)) {
            throw new IllegalArgumentException("role must be one of " + Heartbeat.ROLES + ", not " + role);
        }
        linkAckTimeout = linkAckTimeout == null ? DEFAULT_LINK_ACK_TIMEOUT : linkAckTimeout;
        if (linkAckTimeout.isNegative() || linkAckTimeout.isZero()) {
            throw new IllegalArgumentException("linkAckTimeout must be positive");
        }
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1");
        }
    }

    public static GatewayConfig of(String deviceId, String brokerHost, int brokerPort, Path stateDir, String bootstrapToken) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, Topics.standard(), stateDir, bootstrapToken,
                Duration.ofSeconds(5), 10, TaskSpool.Limits.defaults(), 16, true, gpuPolling(DEFAULT_GPU_POLL),
                stateDir.resolve("data"), Durability.BROKER, null, Heartbeat.ROLE_EDGE, DEFAULT_LINK_ACK_TIMEOUT, null);
    }

    public GatewayConfig withTopics(Topics value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, value, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    public GatewayConfig withBroker(String host, int port) {
        return new GatewayConfig(deviceId, host, port, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    public GatewayConfig withHeartbeat(Duration interval, int keepAlive) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, interval,
                keepAlive, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    public GatewayConfig withSpoolLimits(TaskSpool.Limits value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, value, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    public GatewayConfig withMaxBatch(int value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, value, preferGpu, gpuSource, dataDir, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    /** How often the gateway reads its GPUs by default: once per default heartbeat. */
    public static final Duration DEFAULT_GPU_POLL = Duration.ofSeconds(5);

    /**
     * The GPU readings the heartbeats carry: {@code nvidia-smi} polled every {@code interval} on its own thread
     * (the default, {@link GpuPoller}; the gateway starts and stops it).
     */
    public GatewayConfig withGpuPolling(Duration interval) {
        return withGpus(gpuPolling(interval));
    }

    private static GpuPoller gpuPolling(Duration interval) {
        return new GpuPoller(NvidiaSmi.onPath(), interval);
    }

    /** GPU readings from elsewhere: tests give a fixed list (no GPUs, or stand-in boards); see {@link #withGpuPolling}. */
    public GatewayConfig withGpus(Supplier<List<GpuInfo>> value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, value, dataDir, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    public GatewayConfig withDurability(Durability value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, value, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    public GatewayConfig withDataDir(Path value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, value, durability, brokerPassword, role, linkAckTimeout, brokerTls);
    }

    /** A fixed broker password (e.g. the device's entry in a Mosquitto {@code password_file}); never logged. */
    public GatewayConfig withBrokerPassword(String value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, value, role, linkAckTimeout, brokerTls);
    }

    /**
     * {@code datacenter}: the same runtime serving as the datacenter's inference pool — the planner sees a datacenter
     * site, reached from the gateways over the configured links, instead of an edge site (docs/placement.md).
     */
    public GatewayConfig withRole(String value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, value, linkAckTimeout, brokerTls);
    }

    /** MQTT over TLS to the broker, trusting as {@code value} says (null: plain MQTT; docs/edge.md "Encrypted links"). */
    public GatewayConfig withBrokerTls(MqttLink.Tls value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, role,
                linkAckTimeout, value);
    }

    @Override
    public String toString() {
        return "GatewayConfig[" + deviceId + " -> " + (brokerTls != null ? "mqtts://" : "") + brokerHost + ":" + brokerPort + ", " + topics.root() + ", " + stateDir + ", " + role + "]";
    }

    /** How long the link waits for a PUBACK before the message is published again ({@link #DEFAULT_LINK_ACK_TIMEOUT}). */
    public GatewayConfig withLinkAckTimeout(Duration value) {
        return new GatewayConfig(deviceId, brokerHost, brokerPort, topics, stateDir, bootstrapToken, heartbeatInterval,
                keepAliveSeconds, spoolLimits, maxBatch, preferGpu, gpuSource, dataDir, durability, brokerPassword, role, value, brokerTls);
    }
}
