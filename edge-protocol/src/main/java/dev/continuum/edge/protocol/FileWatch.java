package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/**
 * One thing a gateway watches for a {@code file} trigger: complete files under {@code path} (relative to the
 * gateway's watch root, its data directory) whose name matches {@code glob} and none of {@code ignore}.
 * {@code watchId} is the trigger's id; every {@link FileEvent} names it.
 *
 * <p>A file is complete when its size and mtime stayed the same for {@code stableSeconds}, or — when
 * {@code marker} is set (e.g. {@code ".done"}) — once {@code <file><marker>} exists (the marker is never an
 * event itself). With {@code batchFiles} above 1 or {@code batchWindowSeconds} above 0, complete files are
 * sent together: a batch closes at {@code batchFiles} files or {@code batchWindowSeconds} after its first file.
 */
public record FileWatch(@JsonProperty("watch_id") String watchId,
                        @JsonProperty("path") String path,
                        @JsonProperty("glob") String glob,
                        @JsonProperty("ignore") List<String> ignore,
                        @JsonProperty("stable_seconds") int stableSeconds,
                        @JsonProperty("marker") String marker,
                        @JsonProperty("batch_files") int batchFiles,
                        @JsonProperty("batch_window_seconds") int batchWindowSeconds) {

    public FileWatch {
        ignore = ignore == null ? List.of() : List.copyOf(ignore);
        glob = glob == null || glob.isBlank() ? "*" : glob;
        path = path == null ? "" : path;
    }

    public boolean markerMode() {
        return marker != null && !marker.isEmpty();
    }

    public boolean batched() {
        return batchFiles > 1 || batchWindowSeconds > 0;
    }

    /** Everything a gateway should watch: the cloud publishes it retained, so a reconnecting gateway gets it. */
    public record Watches(@JsonProperty("watches") List<FileWatch> watches) {
        public Watches {
            watches = watches == null ? List.of() : List.copyOf(watches);
        }
    }
}
