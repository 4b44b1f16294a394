package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Complete files a gateway's {@link FileWatch} found: one file, or a batch. {@code eventId} is the dedup key
 * the cloud records under: for one file its {@link WatchedFile#fileId()} (path + size + mtime + content hash),
 * for a batch a hash of its files' ids — the same files always give the same id, so a redelivery after any
 * crash is recognised. Paths are relative to the gateway's watch root (its data directory, which the gateway's
 * storage endpoint serves), so a flow can transfer them from the endpoint named after the gateway.
 */
public record FileEvent(@JsonProperty("device_id") String deviceId,
                        @JsonProperty("watch_id") String watchId,
                        @JsonProperty("event_id") String eventId,
                        @JsonProperty("files") List<WatchedFile> files,
                        @JsonProperty("detected_at_ms") long detectedAtMs) {

    public FileEvent {
        files = files == null ? List.of() : List.copyOf(files);
    }

    public static FileEvent of(String deviceId, String watchId, List<WatchedFile> files, long detectedAtMs) {
        String id = files.size() == 1 ? files.getFirst().fileId() : batchId(files);
        return new FileEvent(deviceId, watchId, id, files, detectedAtMs);
    }

    private static String batchId(List<WatchedFile> files) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (WatchedFile f : files) {
                sha.update(f.fileId().getBytes(StandardCharsets.UTF_8));
                sha.update((byte) '\n');
            }
            return "batch:" + HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** One complete file: {@code sha256} is the hex SHA-256 of its content when it was found complete. */
    public record WatchedFile(@JsonProperty("path") String path,
                              @JsonProperty("size") long size,
                              @JsonProperty("mtime_ms") long mtimeMs,
                              @JsonProperty("sha256") String sha256) {

        /** The gateway file id: the same file content at the same path and time is the same event. */
        public String fileId() {
            return path + ":" + size + ":" + mtimeMs + ":sha256:" + sha256;
        }
    }
}
