package dev.continuum.placement.core.planner;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Values keyed by two names (model and device, site and site) without building a key string per lookup: the
 * planner looks up hundreds of pairs per decision, and the concatenations were most of its time.
 */
final class PairMap<V> {
    private final Map<String, Map<String, V>> byFirst = new HashMap<>();

    V get(String first, String second) {
        Map<String, V> inner = byFirst.get(first);
        return inner == null ? null : inner.get(second);
    }

    void put(String first, String second, V value) {
        byFirst.computeIfAbsent(first, k -> new HashMap<>()).put(second, value);
    }

    void putIfAbsent(String first, String second, V value) {
        byFirst.computeIfAbsent(first, k -> new HashMap<>()).putIfAbsent(second, value);
    }

    /** The values under {@code first}, whatever their second name. */
    Collection<V> values(String first) {
        Map<String, V> inner = byFirst.get(first);
        return inner == null ? List.of() : inner.values();
    }

    void clear() {
        byFirst.clear();
    }
}
