package dev.continuum.edge.files;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.store.FileEventLog;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The gateway's file watches: turns complete files under the watch root (the data directory its storage endpoint
 * serves) into {@link FileEvent}s in the {@link FileEventLog}, each file once. The JDK {@link WatchService} (inotify
 * on Linux) says which directories changed, so a directory of 10,000 files is listed again only when something in
 * it changed, plus a safety scan every {@link #FULL_SCAN_MS} (lost or overflowing notifications); files waiting to
 * be seen stable are looked at on every {@link #tick}. One thread calls {@link #tick}; {@link #update} may come from
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
        List<String> changed = changedWatches();
        long now = clockMs.getAsLong();
        int appended = 0;
        for (WatchedDirectory w : watches.values()) {
            String id = w.watch().watchId();
            boolean full = changed.contains(id) || now - lastFullScan.getOrDefault(id, Long.MIN_VALUE / 2) >= FULL_SCAN_MS;
            List<FileEvent> events;
            try {
                if (full) {
                    lastFullScan.put(id, now);
                    register(w);
                }
                events = w.scan(log, now, full);
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

    /** The watches whose directories had notifications since the last tick (all of them on an overflow). */
    private List<String> changedWatches() {
        List<Path> dirs = new ArrayList<>();
        boolean overflow = false;
        try {
            for (WatchKey key; (key = notifications.poll()) != null; ) {
                for (WatchEvent<?> e : key.pollEvents()) {
                    overflow |= e.kind() == StandardWatchEventKinds.OVERFLOW;
                }
                Path dir = registered.get(key);
                if (dir != null) {
                    dirs.add(dir);
                }
                if (!key.reset()) {
                    registered.remove(key);
                }
            }
        } catch (ClosedWatchServiceException e) {
            return List.of();
        }
        List<String> changed = new ArrayList<>();
        for (WatchedDirectory w : watches.values()) {
            try {
                Path top = w.directory();
                if (overflow || dirs.stream().anyMatch(d -> d.startsWith(top))) {
                    changed.add(w.watch().watchId());
                }
            } catch (RuntimeException e) {
                // refused at its scan
            }
        }
        return changed;
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
