package dev.continuum.edge.gateway.files;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.gateway.store.FileEventLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The gateway's file watches: turns complete files under the watch root (the data directory its storage endpoint
 * serves) into {@link FileEvent}s in the {@link FileEventLog}, each file once. The JDK {@link WatchService} (inotify
 * on Linux) names the files that changed, and only those are looked at (with the files waiting to be seen stable);
 * a directory of 10,000 files is listed in full only every {@link #FULL_SCAN_MS} (lost notifications, new
 * subdirectories) and after an overflow. One thread calls {@link #tick}; {@link #update} may come from
 * another.
 */
public final class FileWatcher implements AutoCloseable {

    static final long FULL_SCAN_MS = 10_000;
    private static final java.util.logging.Logger LOG = java.util.logging.Logger.getLogger(FileWatcher.class.getName());

    /** A watch the gateway will not keep, and why (its path leads outside the root, or a pattern is unreadable). */
    public record Refusal(String watchId, String reason) {}

    private final Path realRoot;
    private final String deviceId;
    private final FileEventLog log;
    private final LongSupplier clockMs;
    private final WatchService notifications;
    private final Map<String, WatchedDirectory> watches = new LinkedHashMap<>();
    private final Map<String, Long> lastFullScan = new HashMap<>();
    private final Map<WatchKey, Path> registered = new HashMap<>();
    private volatile List<FileWatch> wanted = null;
    private volatile List<Refusal> refusals = List.of();

    public FileWatcher(Path root, String deviceId, FileEventLog log, LongSupplier clockMs) {
        try {
            Files.createDirectories(root);
            this.realRoot = root.toRealPath();
            this.notifications = FileSystems.getDefault().newWatchService();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.deviceId = deviceId;
        this.log = log;
        this.clockMs = clockMs;
    }

    /** The watches to keep from now on (the whole list); taken up at the next {@link #tick}. */
    public void update(List<FileWatch> value) {
        wanted = List.copyOf(value);
    }

    public List<Refusal> refusals() {
        return refusals;
    }

    /** Looks for complete files; returns how many events it appended (already synced to disk). */
    public int tick() {
        List<FileWatch> next = wanted;
        if (next != null) {
            wanted = null;
            apply(next);
        }
        Changes changes = drainNotifications();
        long now = clockMs.getAsLong();
        int appended = 0;
        for (WatchedDirectory w : watches.values()) {
            String id = w.watch().watchId();
            boolean full = changes.overflow() || now - lastFullScan.getOrDefault(id, Long.MIN_VALUE / 2) >= FULL_SCAN_MS;
            List<FileEvent> events;
            try {
                if (full) {
                    lastFullScan.put(id, now);
                    register(w);
                }
                events = w.scan(log, now, full, changes.paths());
            } catch (RuntimeException e) {
                continue; // e.g. a symlink planted on the path now leads out: nothing of it is taken
            }
            for (FileEvent e : events) {
                log.append(e);
                appended++;
            }
        }
        if (appended > 0) {
            log.sync(); // on disk before any of it is published: a crash after the PUBACK cannot lose it
        }
        return appended;
    }

    private void apply(List<FileWatch> next) {
        Map<String, WatchedDirectory> kept = new LinkedHashMap<>();
        List<Refusal> refused = new ArrayList<>();
        for (FileWatch w : next) {
            WatchedDirectory current = watches.get(w.watchId());
            if (current != null && current.watch().equals(w)) {
                kept.put(w.watchId(), current);
                continue;
            }
            try {
                kept.put(w.watchId(), new WatchedDirectory(w, realRoot, deviceId));
                lastFullScan.remove(w.watchId());
            } catch (RuntimeException e) {
                refused.add(new Refusal(w.watchId(), e.getMessage()));
                LOG.warning(() -> "refused watch " + w.watchId() + " of " + w.path() + ": " + e.getMessage());
            }
        }
        watches.clear();
        watches.putAll(kept);
        lastFullScan.keySet().retainAll(kept.keySet());
        refusals = List.copyOf(refused);
    }

    private void register(WatchedDirectory w) {
        for (Path dir : w.directories()) {
            if (registered.containsValue(dir)) {
                continue;
            }
            try {
                registered.put(dir.register(notifications, StandardWatchEventKinds.ENTRY_CREATE,
                        StandardWatchEventKinds.ENTRY_MODIFY, StandardWatchEventKinds.ENTRY_DELETE), dir);
            } catch (IOException e) {
                // gone again, or out of inotify watches: the periodic full scan still finds its files
            }
        }
    }

    /** What the notifications since the last tick said: the paths named, and whether a full look is needed. */
    private record Changes(Set<Path> paths, boolean overflow) {}

    private Changes drainNotifications() {
        Set<Path> paths = new HashSet<>();
        boolean overflow = false;
        try {
            for (WatchKey key; (key = notifications.poll()) != null; ) {
                Path dir = registered.get(key);
                for (WatchEvent<?> e : key.pollEvents()) {
                    if (e.kind() == StandardWatchEventKinds.OVERFLOW || dir == null) {
                        overflow = true;
                    } else {
                        Path changed = dir.resolve((Path) e.context());
                        // a new subdirectory: its files and its own notifications come with the next full look
                        overflow |= Files.isDirectory(changed, java.nio.file.LinkOption.NOFOLLOW_LINKS);
                        paths.add(changed);
                    }
                }
                if (!key.reset()) {
                    registered.remove(key);
                }
            }
        } catch (ClosedWatchServiceException e) {
            return new Changes(Set.of(), false);
        }
        return new Changes(paths, overflow);
    }

    @Override
    public void close() {
        try {
            notifications.close();
        } catch (IOException e) {
            // closing: nothing left to watch
        }
    }
}
