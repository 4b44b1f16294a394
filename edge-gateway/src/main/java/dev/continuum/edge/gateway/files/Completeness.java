package dev.continuum.edge.gateway.files;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * When a file counts as written completely. The JDK's {@code WatchService} reports creations and modifications but
 * not inotify's CLOSE_WRITE, and no kept Java library exposes it without native code, so a file is complete when
 * either its size and mtime stayed the same across observations {@code stableMillis} apart, or (marker mode) a
 * marker file beside it says so. Pure: the caller observes, this decides.
 */
final class Completeness {

    private record Observed(long size, long mtimeMs, long sinceMs) {}

    private final long stableMillis;
    private final boolean markerMode;
    private final Map<String, Observed> observed = new HashMap<>();

    Completeness(long stableMillis, boolean markerMode) {
        this.stableMillis = stableMillis;
        this.markerMode = markerMode;
    }

    /** Whether the file at {@code path} is complete now, seen with this size and mtime at {@code nowMs}. */
    boolean complete(String path, long size, long mtimeMs, boolean markerPresent, long nowMs) {
        if (markerMode) {
            return markerPresent;
        }
        Observed before = observed.get(path);
        if (before == null || before.size() != size || before.mtimeMs() != mtimeMs) {
            observed.put(path, new Observed(size, mtimeMs, nowMs));
            return stableMillis == 0;
        }
        return nowMs - before.sinceMs() >= stableMillis;
    }

    /** The file was taken (or changed under the hash): start over if it is seen again. */
    void forget(String path) {
        observed.remove(path);
    }

    /** Files waiting to be seen stable. */
    Set<String> waiting() {
        return observed.keySet();
    }

    /** Only files still present are remembered, so memory follows the directory, not its history. */
    void retainOnly(Set<String> present) {
        observed.keySet().retainAll(present);
    }
}
