package dev.continuum.engine.adapters.persistence;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Keyset paging for listings: ORDER BY over sort keys (never null: callers COALESCE) with the row id last,
 * and "after the last row of the previous page" as one predicate on those keys. Unlike OFFSET, a page never
 * repeats or skips rows when runs start meanwhile, and the database reads only the page.
 * Keys travel as text (the marker) and are cast back by type in SQL.
 */
final class Keyset {

    /** {@code expr} is a non-null SQL expression; {@code type} is its SQL type for the cast back from text. */
    record Key(String expr, String type, boolean descending) {}

    /** Positional parameters as the reactive client numbers them. */
    static final class Params {
        final List<Object> values = new ArrayList<>();

        String add(Object value) {
            values.add(value);
            return "$" + values.size();
        }
    }

    private Keyset() {}

    static String orderBy(List<Key> keys) {
        return keys.stream().map(k -> k.expr() + (k.descending() ? " DESC" : " ASC")).collect(Collectors.joining(", "));
    }

    /** The keys as text columns, so the last row of a page can name where the next one starts. */
    static String selectKeys(List<Key> keys) {
        return keys.stream().map(k -> "(" + k.expr() + ")::text").collect(Collectors.joining(", "));
    }

    /** Rows strictly after {@code values} in the order of {@code keys}: (k1 > v1) OR (k1 = v1 AND k2 > v2) OR ... */
    static String after(List<Key> keys, List<String> values, Params params) {
        if (values.size() != keys.size()) {
            throw new IllegalArgumentException("marker has " + values.size() + " keys, the order needs " + keys.size());
        }
        List<String> cast = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            cast.add(params.add(values.get(i)) + "::text::" + keys.get(i).type());
        }
        List<String> alternatives = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
            List<String> terms = new ArrayList<>();
            for (int j = 0; j < i; j++) {
                terms.add(keys.get(j).expr() + " = " + cast.get(j));
            }
            terms.add(keys.get(i).expr() + (keys.get(i).descending() ? " < " : " > ") + cast.get(i));
            alternatives.add("(" + String.join(" AND ", terms) + ")");
        }
        return "(" + String.join(" OR ", alternatives) + ")";
    }

    /**
     * The page out of {@code limit + 1} fetched rows: {@code limit} items, and when a further row came back, the
     * keys of the last item (the text columns after the first {@code fields}) to continue after.
     */
    static <T> dev.continuum.engine.app.Slice<T> slice(io.vertx.mutiny.sqlclient.RowSet<io.vertx.mutiny.sqlclient.Row> rows,
                                                       int limit, int fields, int keyCount,
                                                       java.util.function.Function<io.vertx.mutiny.sqlclient.Row, T> item) {
        List<io.vertx.mutiny.sqlclient.Row> found = new ArrayList<>();
        rows.forEach(found::add);
        boolean more = found.size() > limit;
        List<io.vertx.mutiny.sqlclient.Row> page = more ? found.subList(0, limit) : found;
        List<String> after = new ArrayList<>();
        if (more) {
            io.vertx.mutiny.sqlclient.Row last = page.get(page.size() - 1);
            for (int k = 0; k < keyCount; k++) {
                after.add(last.getString(fields + k));
            }
        }
        return new dev.continuum.engine.app.Slice<>(page.stream().map(item).toList(), after);
    }

    /** A case-insensitive "contains" pattern for ILIKE, with the user's own wildcards taken literally. */
    static String[] containsPatterns(List<String> values) {
        return values.stream().map(v -> "%" + v.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%")
                .toArray(String[]::new);
    }

    /** The principals a role list must name for {@code user} to hold the role. */
    static String[] principals(String user) {
        return new String[]{user, dev.continuum.engine.app.Access.PUBLIC, dev.continuum.engine.app.Access.ALL_AUTHENTICATED};
    }
}
