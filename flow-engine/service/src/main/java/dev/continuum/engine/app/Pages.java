package dev.continuum.engine.app;

import io.smallrye.mutiny.Uni;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/** Paging over only the items a caller may see, when the store cannot filter by access itself. */
final class Pages {

    private static final int BATCH = 500;

    private Pages() {}

    /** Items {@code offset .. offset+limit} of those matching {@code keep}, reading the store in batches. */
    static <T> Uni<List<T>> filtered(BiFunction<Integer, Integer, Uni<List<T>>> fetch, Predicate<T> keep, int limit, int offset) {
        return collect(fetch, keep, limit, offset, 0, new ArrayList<>());
    }

    private static <T> Uni<List<T>> collect(BiFunction<Integer, Integer, Uni<List<T>>> fetch, Predicate<T> keep, int limit,
                                            int offset, int from, List<T> kept) {
        return fetch.apply(BATCH, from).flatMap(batch -> {
            batch.stream().filter(keep).forEach(kept::add);
            if (batch.size() < BATCH || kept.size() >= offset + limit) {
                return Uni.createFrom().item(kept.subList(Math.min(offset, kept.size()), Math.min(offset + limit, kept.size())));
            }
            return collect(fetch, keep, limit, offset, from + BATCH, kept);
        });
    }
}
