package dev.continuum.edge.gateway.files;

import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.gateway.store.FileEventLog;
import dev.continuum.paths.PathNormalizer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * One watch at work: finds the complete, wanted files of its directory that were not sent yet, reads their content
 * hash, and groups them into events (one per file, or batches). The directory is the watch's path under the
 * gateway's watch root, resolved by the shared endpoint path rules: {@code ..}, control characters, look-alike
 * slashes and symlinks leading out of the root are refused, at every full scan (a link planted later too).
 */
final class WatchedDirectory {

    /** A batch with a file count but no window still closes after this long, so no file waits for ever. */
    static final long DEFAULT_BATCH_WINDOW_MS = 60_000;

    private final FileWatch watch;
    private final Path realRoot;
    private final String deviceId;
    private final NameRules rules;
    private final Completeness completeness;
    private final List<FileEvent.WatchedFile> batch = new ArrayList<>();
    private final Set<String> inBatch = new HashSet<>();
    private long batchOpenedMs;

    WatchedDirectory(FileWatch watch, Path realRoot, String deviceId) {
        this.watch = watch;
        this.realRoot = realRoot;
        this.deviceId = deviceId;
        this.rules = new NameRules(watch);
        this.completeness = new Completeness(watch.stableSeconds() * 1000L, watch.markerMode());
        directory(); // refuses a path outside the root now, not at the first scan
    }

    FileWatch watch() {
        return watch;
    }

    /** The watched directory, checked against the root again (it may not exist yet). */
    Path directory() {
        try {
            return PathNormalizer.normalize(watch.path()).resolveIn(realRoot);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Events made complete by now: with {@code full}, the whole directory is looked at (the periodic safety scan);
     * otherwise the files the notifications named ({@code changed}) and those waiting to be seen stable.
     */
    List<FileEvent> scan(FileEventLog log, long nowMs, boolean full, Set<Path> changed) {
        Path dir = directory();
        List<FileEvent.WatchedFile> complete = new ArrayList<>();
        if (full) {
            Set<String> presentKeys = new HashSet<>();
            Set<String> presentPaths = new HashSet<>();
            for (Path file : files(dir)) {
                look(log, dir, file, nowMs, complete, presentKeys, presentPaths);
            }
            log.retainSent(watch.watchId(), presentKeys);
            completeness.retainOnly(presentPaths);
        } else {
            Set<Path> candidates = new java.util.LinkedHashSet<>();
            for (String waiting : completeness.waiting()) {
                candidates.add(realRoot.resolve(waiting));
            }
            for (Path p : changed) {
                if (!p.startsWith(dir)) {
                    continue;
                }
                String name = p.getFileName().toString();
                // a marker appearing makes its file complete; a renamed-in file is a create of its final name
                candidates.add(rules.isMarker(name) ? p.resolveSibling(name.substring(0, name.length() - watch.marker().length())) : p);
            }
            for (Path p : candidates) {
                look(log, dir, p, nowMs, complete, null, null);
            }
        }
        return events(complete, nowMs);
    }

    private void look(FileEventLog log, Path dir, Path file, long nowMs, List<FileEvent.WatchedFile> complete,
                      Set<String> presentKeys, Set<String> presentPaths) {
        Path relative = dir.relativize(file);
        if (!rules.wanted(relative)) {
            return;
        }
        BasicFileAttributes before = attributes(file);
        if (before == null || !before.isRegularFile()) {
            return;
        }
        String path = realRoot.relativize(file).toString().replace('\\', '/');
        FileEvent.WatchedFile seen = new FileEvent.WatchedFile(path, before.size(), before.lastModifiedTime().toMillis(), null);
        String key = FileEventLog.sentKey(seen);
        if (presentKeys != null) {
            presentKeys.add(key);
            presentPaths.add(path);
        }
        if (inBatch.contains(key) || log.wasSent(watch.watchId(), key)) {
            completeness.forget(path);
            return;
        }
        boolean marker = watch.markerMode()
                && Files.exists(file.resolveSibling(file.getFileName() + watch.marker()), LinkOption.NOFOLLOW_LINKS);
        if (!completeness.complete(path, seen.size(), seen.mtimeMs(), marker, nowMs)) {
            return;
        }
        String hash = sha256(file);
        BasicFileAttributes after = attributes(file);
        completeness.forget(path);
        if (hash == null || after == null || after.size() != seen.size()
                || after.lastModifiedTime().toMillis() != seen.mtimeMs()) {
            return; // written to while hashed: not complete after all, seen again at the next scan
        }
        complete.add(new FileEvent.WatchedFile(path, seen.size(), seen.mtimeMs(), hash));
    }

    private List<FileEvent> events(List<FileEvent.WatchedFile> complete, long nowMs) {
        if (!watch.batched()) {
            return complete.stream().map(f -> FileEvent.of(deviceId, watch.watchId(), List.of(f), nowMs)).toList();
        }
        List<FileEvent> closed = new ArrayList<>();
        for (FileEvent.WatchedFile f : complete) {
            if (batch.isEmpty()) {
                batchOpenedMs = nowMs;
            }
            batch.add(f);
            inBatch.add(FileEventLog.sentKey(f));
            if (watch.batchFiles() > 1 && batch.size() >= watch.batchFiles()) {
                closed.add(closeBatch(nowMs));
            }
        }
        long window = watch.batchWindowSeconds() > 0 ? watch.batchWindowSeconds() * 1000L : DEFAULT_BATCH_WINDOW_MS;
        if (!batch.isEmpty() && nowMs - batchOpenedMs >= window) {
            closed.add(closeBatch(nowMs));
        }
        return closed;
    }

    private FileEvent closeBatch(long nowMs) {
        FileEvent event = FileEvent.of(deviceId, watch.watchId(), List.copyOf(batch), nowMs);
        batch.clear();
        inBatch.clear();
        return event;
    }

    private static List<Path> files(Path dir) {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> !p.equals(dir)).toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of(); // a file vanished mid-walk: the next scan sees the directory as it is then
        }
    }

    /** Subdirectories to register with the watch service (symlinks are not followed). */
    List<Path> directories() {
        Path dir = directory();
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            return walk.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).toList();
        } catch (IOException | UncheckedIOException e) {
            return List.of(dir);
        }
    }

    private static BasicFileAttributes attributes(Path file) {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            return null;
        }
    }

    private static String sha256(Path file) {
        try (InputStream in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] buffer = new byte[256 * 1024];
            for (int n; (n = in.read(buffer)) > 0; ) {
                sha.update(buffer, 0, n);
            }
            return java.util.HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            return null;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
