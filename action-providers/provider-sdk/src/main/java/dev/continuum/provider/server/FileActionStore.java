package dev.continuum.provider.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Keeps actions as one JSON file each, rewritten atomically (write, fsync, rename) on every change,
 * so a provider killed at any moment — or a machine losing power — finds its actions again and
 * resumes the unfinished ones ({@link ActionProvider#resume}). One process per directory. Reads are
 * served from memory. Used by providers that run standalone, without a database (see ADR 0006).
 */
public final class FileActionStore implements ActionStore {

    private final Path dir;
    private final Map<String, StoredAction> byId = new HashMap<>();
    private final Map<String, String> byRequest = new HashMap<>();

    public FileActionStore(Path dir) {
        this.dir = dir;
        try {
            Files.createDirectories(dir);
            try (Stream<Path> files = Files.list(dir)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (f.getFileName().toString().endsWith(".json")) {
                        StoredAction a = StoredActionJson.read(Files.readAllBytes(f));
                        byId.put(a.actionId(), a);
                        byRequest.put(requestKey(a), a.actionId());
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot load actions from " + dir, e);
        }
    }

    private static String requestKey(StoredAction a) {
        return a.creatorId() + "\n" + a.request().requestId();
    }

    private void write(StoredAction a) {
        Path target = dir.resolve(a.actionId() + ".json");
        Path tmp = dir.resolve(a.actionId() + ".json.tmp");
        try {
            byte[] bytes = StoredActionJson.write(a);
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ch.write(ByteBuffer.wrap(bytes));
                ch.force(false); // the rename must never expose a file whose content is still in the page cache only
            }
            Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot store action " + a.actionId(), e);
        }
    }

    @Override
    public synchronized StoredAction insertIfAbsent(StoredAction action) {
        String holder = byRequest.get(requestKey(action));
        if (holder != null) {
            return byId.get(holder);
        }
        write(action);
        byId.put(action.actionId(), action);
        byRequest.put(requestKey(action), action.actionId());
        return action;
    }

    @Override
    public synchronized Optional<StoredAction> find(String actionId) {
        return Optional.ofNullable(byId.get(actionId));
    }

    @Override
    public synchronized Optional<StoredAction> findByRequest(String creatorId, String requestId) {
        String id = byRequest.get(creatorId + "\n" + requestId);
        return id == null ? Optional.empty() : Optional.ofNullable(byId.get(id));
    }

    @Override
    public synchronized Optional<StoredAction> update(String actionId, UnaryOperator<StoredAction> change) {
        StoredAction current = byId.get(actionId);
        if (current == null) {
            return Optional.empty();
        }
        StoredAction next = change.apply(current);
        if (next != current) {
            write(next);
            byId.put(actionId, next);
        }
        return Optional.of(next);
    }

    @Override
    public synchronized Optional<StoredAction> remove(String actionId) {
        StoredAction removed = byId.remove(actionId);
        if (removed != null) {
            byRequest.remove(requestKey(removed));
            try {
                Files.deleteIfExists(dir.resolve(actionId + ".json"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return Optional.ofNullable(removed);
    }

    @Override
    public synchronized List<StoredAction> unfinished() {
        return byId.values().stream().filter(a -> !a.finished()).toList();
    }

    @Override
    public synchronized List<String> releasable(Instant now) {
        return byId.values().stream()
                .filter(a -> a.finished() && a.releaseAt() != null && !a.releaseAt().isAfter(now))
                .map(StoredAction::actionId).toList();
    }
}
