package dev.continuum.provider.server;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.UnaryOperator;

/** The default store: fast, and lost when the process ends (so are the actions' timers). */
public final class InMemoryActionStore implements ActionStore {

    private final ConcurrentHashMap<String, StoredAction> byId = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<RequestKey, String> byRequest = new ConcurrentHashMap<>();

    @Override
    public synchronized StoredAction insertIfAbsent(StoredAction action) {
        RequestKey key = new RequestKey(action.creatorId(), action.request().requestId());
        String holder = byRequest.putIfAbsent(key, action.actionId());
        if (holder != null) {
            return byId.get(holder);
        }
        byId.put(action.actionId(), action);
        return action;
    }

    @Override
    public Optional<StoredAction> find(String actionId) {
        return Optional.ofNullable(byId.get(actionId));
    }

    @Override
    public Optional<StoredAction> findByRequest(String creatorId, String requestId) {
        String id = byRequest.get(new RequestKey(creatorId, requestId));
        return id == null ? Optional.empty() : find(id);
    }

    @Override
    public Optional<StoredAction> update(String actionId, UnaryOperator<StoredAction> change) {
        return Optional.ofNullable(byId.computeIfPresent(actionId, (id, current) -> change.apply(current)));
    }

    @Override
    public synchronized Optional<StoredAction> remove(String actionId) {
        StoredAction removed = byId.remove(actionId);
        if (removed != null) {
            byRequest.remove(new RequestKey(removed.creatorId(), removed.request().requestId()), actionId);
        }
        return Optional.ofNullable(removed);
    }

    @Override
    public List<StoredAction> unfinished() {
        return byId.values().stream().filter(a -> !a.finished()).toList();
    }

    @Override
    public List<String> releasable(Instant now) {
        return byId.values().stream()
                .filter(a -> a.finished() && a.releaseAt() != null && !a.releaseAt().isAfter(now))
                .map(StoredAction::actionId)
                .toList();
    }

    @Override
    public boolean neverBlocks() {
        return true; // its two locks are held for a few map operations
    }

    /** Number of actions held; for tests and metrics. */
    public int size() {
        return byId.size();
    }

    private record RequestKey(String creatorId, String requestId) {}
}
