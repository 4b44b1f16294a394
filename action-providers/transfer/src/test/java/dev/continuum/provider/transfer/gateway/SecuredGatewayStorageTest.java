package dev.continuum.provider.transfer.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.edge.broker.BrokerAccess;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import dev.continuum.provider.transfer.engine.Progress;
import dev.continuum.provider.transfer.engine.TransferEngine;
import dev.continuum.provider.transfer.engine.TransferItem;
import dev.continuum.provider.transfer.engine.TransferJournal;
import dev.continuum.provider.transfer.engine.TransferOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A gateway's storage through the broker `up` starts: logins required, each device on its own topics (ADR 0011). */
class SecuredGatewayStorageTest {

    private static final String SECRET = "a secret only the cloud holds";

    @TempDir Path tmp;

    @Test
    void shouldServeAStorageRequestWhenBothHalvesLogIn() throws Exception {
        String root = TestBrokers.freshTopics().root();
        DeviceCredentials credentials = DeviceCredentials.fromSecret(SECRET, Clock.systemUTC());
        Files.createDirectories(tmp.resolve("device/run"));
        Files.writeString(tmp.resolve("device/run/frame.json"), "{\"shape\":[1]}");

        try (Brokers.EmbeddedBroker broker = Brokers.EmbeddedBroker.startSecured(Brokers.freePort(), null,
                     BrokerAccess.forSecret(new Topics(root), credentials, SECRET));
             GatewayStorageServer device = new GatewayStorageServer(new GatewayStorageServer.Settings(broker.host(), broker.port(),
                     root, "gw-1", tmp.resolve("device"), true, 2), MqttLink.Login.of("gw-1", credentials.bootstrapToken("gw-1"))).start()) {
            MqttGatewayStorage cloud = new MqttGatewayStorage(new MqttGatewayStorage.Settings(broker.host(), broker.port(), root,
                    "gw-1", Duration.ofSeconds(10), 3), MqttLink.Login.of(BrokerAccess.OPERATOR, DeviceCredentials.brokerPassword(SECRET)));

            Progress.Snapshot result = new TransferEngine(TransferOptions.defaults()).run(cloud, new LocalStorage(tmp.resolve("dc")),
                    List.of(new TransferItem(PathNormalizer.normalize("/run"), PathNormalizer.normalize("/in"), true)),
                    null, TransferJournal.open(tmp.resolve("j")), new Progress(), (code, text) -> { }, new AtomicBoolean());

            assertThat(result.filesDone()).isEqualTo(1);
            assertThat(tmp.resolve("dc/in/frame.json")).hasContent("{\"shape\":[1]}");
            cloud.close();
        }
    }
}
