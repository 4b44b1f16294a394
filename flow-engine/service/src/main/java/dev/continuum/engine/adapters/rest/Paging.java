package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.domain.EngineError;

import java.util.List;

final class Paging {
    static final int MAX_LIMIT = 1000;

    private Paging() {}

    static void check(int limit, int offset) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw EngineError.invalidField("/limit", "limit must be between 1 and " + MAX_LIMIT + ".");
        }
        if (offset < 0) {
            throw EngineError.invalidField("/offset", "offset cannot be negative.");
        }
    }

    /** Callers fetch limit + 1 rows so the page can say whether more follow. */
    static <T> Views.Page<T> page(List<T> fetched, int limit, int offset) {
        boolean more = fetched.size() > limit;
        return new Views.Page<>(more ? fetched.subList(0, limit) : fetched, limit, offset, more);
    }
}
