package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;

/** Retained on the status topic: "online" when a gateway connects, "offline" as its last will or on a clean stop. */
public record DeviceStatus(@JsonProperty("device_id") String deviceId,
                           @JsonProperty("state") String state,
                           @JsonProperty("at") String at) {

    public static final String ONLINE = "online";
    public static final String OFFLINE = "offline";

    public static DeviceStatus online(String deviceId, Instant at) {
        return new DeviceStatus(deviceId, ONLINE, at.toString());
    }

    public static DeviceStatus offline(String deviceId, Instant at) {
        return new DeviceStatus(deviceId, OFFLINE, at.toString());
    }

    public boolean isOnline() {
        return ONLINE.equals(state);
    }
}
