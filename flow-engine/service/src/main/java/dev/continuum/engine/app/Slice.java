package dev.continuum.engine.app;

import java.util.List;

/**
 * One page of a listing, cut by the store. {@code after} names the last item's place in the sort order (opaque
 * to everyone but the store); passed back in the next query, the next page starts right after it, however many
 * items were added before it meanwhile. Empty when no page follows.
 */
public record Slice<T>(List<T> items, List<String> after) {

    public Slice {
        items = List.copyOf(items);
        after = List.copyOf(after);
    }

    public boolean hasNextPage() {
        return !after.isEmpty();
    }

    public <U> Slice<U> map(java.util.function.Function<T, U> f) {
        return new Slice<>(items.stream().map(f).toList(), after);
    }
}
