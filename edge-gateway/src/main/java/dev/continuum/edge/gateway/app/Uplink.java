package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.DeviceStatus;
import dev.continuum.edge.protocol.Heartbeat;
import dev.continuum.edge.protocol.ProgressMessage;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.ResultMessage;
import java.util.concurrent.CompletableFuture;

/**
 * What the gateway's parts say to the cloud, each on its device topic. The port between them and the
 * MQTT link ({@link MqttUplink}), so admission, the outbox and the rest can be tested without a broker.
 */
interface Uplink {

    /** Whether a publish now can reach the broker (a result is kept on disk when not). */
    boolean connected();

    /** QoS 1; completes on the broker's PUBACK, fails when the link is down or drops first. */
    CompletableFuture<Void> result(ResultMessage result);

    /** QoS 1, answered on the credential topic. */
    void registration(Registration registration);

    /** QoS 1, retained: what a newcomer to the fleet view sees. */
    void status(DeviceStatus status);

    /** QoS 0: news that the next message replaces. */
    void progress(ProgressMessage progress);

    /** QoS 0: the next one follows within the heartbeat interval. */
    void heartbeat(Heartbeat heartbeat);
}
