package dev.continuum.edge.protocol;

import java.util.Objects;

/**
 * Where each kind of message travels. Every device has its own branch under the root, so a broker
 * ACL can later confine a device to {@code <root>/devices/<its id>/#}.
 */
public record Topics(String root) {

    public Topics {
        Objects.requireNonNull(root, "root");
        if (root.isBlank() || root.contains("+") || root.contains("#") || root.endsWith("/")) {
            throw new IllegalArgumentException("topic root must be a plain topic prefix: " + root);
        }
    }

    public static Topics standard() {
        return new Topics("continuum");
    }

    /** Retained {@link DeviceStatus}; the broker publishes the last will here when a gateway vanishes. */
    public String status(String deviceId) { return device(deviceId) + "/status"; }
    public String heartbeat(String deviceId) { return device(deviceId) + "/heartbeat"; }
    public String tasks(String deviceId) { return device(deviceId) + "/tasks"; }
    public String results(String deviceId) { return device(deviceId) + "/results"; }
    public String progress(String deviceId) { return device(deviceId) + "/progress"; }
    public String credential(String deviceId) { return device(deviceId) + "/credential"; }
    public String models(String deviceId) { return device(deviceId) + "/models"; }
    /** Gateway → cloud, QoS 1: {@link FileEvent}s of complete files. */
    public String files(String deviceId) { return device(deviceId) + "/files"; }
    /** Cloud → gateway, QoS 1, retained: the {@link FileWatch.Watches} the gateway keeps. */
    public String watches(String deviceId) { return device(deviceId) + "/watches"; }
    public String register(String deviceId) { return root + "/register/" + checkId(deviceId); }

    public String allStatuses() { return root + "/devices/+/status"; }
    public String allHeartbeats() { return root + "/devices/+/heartbeat"; }
    public String allResults() { return root + "/devices/+/results"; }
    public String allProgress() { return root + "/devices/+/progress"; }
    public String allFiles() { return root + "/devices/+/files"; }
    public String allRegistrations() { return root + "/register/+"; }

    /**
     * Where the placement planner pushes each re-placement of a job to the cloud client that asked for it ({@code
     * owner}: that client's MQTT client id, in the device ids' alphabet): cloud to cloud, never a device's.
     */
    public String replacements(String owner) { return root + "/placement/" + checkId(owner) + "/replaced"; }

    /** The device id in a topic under {@code <root>/devices/<id>/...} or {@code <root>/register/<id>}. */
    public String deviceIdOf(String topic) {
        String[] parts = topic.substring(root.length() + 1).split("/");
        return parts.length >= 2 ? parts[1] : "";
    }

    private String device(String deviceId) {
        return root + "/devices/" + checkId(deviceId);
    }

    /** Device ids become topic levels and file names: keep them to a safe alphabet. */
    public static String checkId(String deviceId) {
        if (deviceId == null || !deviceId.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,63}")) {
            throw new IllegalArgumentException(
                    "device id must be 1-64 characters of letters, digits, '.', '_' or '-': " + deviceId);
        }
        return deviceId;
    }

    /** MQTT topic filter matching with '+' (one level) and '#' (the rest). */
    public static boolean matches(String filter, String topic) {
        String[] f = filter.split("/", -1);
        String[] t = topic.split("/", -1);
        for (int i = 0; i < f.length; i++) {
            if (f[i].equals("#")) {
                return true;
            }
            if (i >= t.length) {
                return false;
            }
            if (!f[i].equals("+") && !f[i].equals(t[i])) {
                return false;
            }
        }
        return f.length == t.length;
    }
}
