package dev.continuum.provider.transfer.endpoint;

/**
 * An edge gateway's local storage, reached through the gateway's outbound MQTT link (the gateway
 * connects out, so the provider can never dial it). The edge-gateway module implements this by
 * carrying the {@link Storage} calls as request/reply messages on the device's topics; chunk
 * reads and writes then cross the link as binary payloads and are verified here exactly like
 * local ones. Register it with kind {@code gateway}.
 *
 * <p>Until that adapter exists, a gateway's storage can be exposed to the provider as a
 * directory (its spool synced or mounted at the datacenter side) with kind {@code directory}.
 */
public interface GatewayStorage extends Storage {

    /** The gateway's device id (its MQTT client id). */
    String deviceId();

    /** False while the gateway's last will says it is offline; transfers then wait or fail. */
    boolean online();
}
