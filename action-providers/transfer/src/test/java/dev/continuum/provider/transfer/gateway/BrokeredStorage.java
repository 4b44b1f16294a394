package dev.continuum.provider.transfer.gateway;

import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import io.opentelemetry.api.OpenTelemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A device's storage half and the provider's links to it through the test broker, on topics of their own; closes
 * what it opened, newest first.
 */
final class BrokeredStorage implements AutoCloseable {

    final String root = TestBrokers.freshTopics().root();
    final String device = "gw-" + UUID.randomUUID().toString().substring(0, 8);
    private final List<AutoCloseable> open = new ArrayList<>();

    /** The device half serving {@code dir}, connected; spans of traced requests to {@code telemetry}. */
    GatewayStorageServer device(Path dir, boolean readOnly, int threads, OpenTelemetry telemetry) {
        Brokers.Broker b = TestBrokers.shared();
        GatewayStorageServer server = new GatewayStorageServer(new GatewayStorageServer.Settings(b.host(), b.port(), root,
                device, dir, readOnly, threads), null, telemetry).start();
        open.add(server);
        return server;
    }

    /** A provider's link to the device (10 s per attempt, 3 attempts). */
    MqttGatewayStorage cloud() {
        Brokers.Broker b = TestBrokers.shared();
        MqttGatewayStorage storage = new MqttGatewayStorage(new MqttGatewayStorage.Settings(b.host(), b.port(), root,
                device, Duration.ofSeconds(10), 3));
        open.add(storage::close);
        return storage;
    }

    /** Closes {@code c} with the rest (a test's own link to the broker, say). */
    <T extends AutoCloseable> T closing(T c) {
        open.add(c);
        return c;
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c : open.reversed()) {
            c.close();
        }
        open.clear();
    }
}
