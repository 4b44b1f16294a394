package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.provider.api.IntegerParameter;
import jakarta.ws.rs.core.MultivaluedMap;

import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The query parameters of a Globus-style listing. A value list may come as repeated parameters or, for
 * enumerations and ids, comma-separated. As in Globus, the {@code marker} of a page carries the whole query
 * (and where the page ended): given a marker, every other parameter is ignored. Unknown parameters are
 * refused naming them, as unknown body fields are.
 */
final class ListParams {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What a marker holds: the query's parameters and the sort keys of the last item shown. */
    record Marker(Map<String, List<String>> query, List<String> after) {}

    private final Map<String, List<String>> query;
    private final List<String> after;

    private ListParams(Map<String, List<String>> query, List<String> after) {
        this.query = query;
        this.after = after;
    }

    static ListParams of(MultivaluedMap<String, String> raw, Set<String> known) {
        List<String> marker = raw.getOrDefault("marker", raw.get("pagination_token"));
        if (marker != null && !marker.isEmpty() && !marker.get(0).isEmpty()) {
            Marker decoded = decode(marker.get(0));
            return new ListParams(decoded.query(), decoded.after());
        }
        Map<String, List<String>> query = new LinkedHashMap<>();
        raw.forEach((name, values) -> {
            if (!known.contains(name) && !name.equals("marker") && !name.equals("pagination_token")) {
                throw EngineError.invalidField("/" + name, "'" + name + "' is not a parameter of this listing; known: "
                        + known.stream().sorted().toList() + ".");
            }
            query.put(name, List.copyOf(values));
        });
        return new ListParams(query, List.of());
    }

    /** The marker of the page that follows the one ending at {@code lastKeys}; null when none follows. */
    String next(List<String> lastKeys) {
        if (lastKeys.isEmpty()) {
            return null;
        }
        try {
            byte[] json = JSON.writeValueAsBytes(new Marker(query, lastKeys));
            return Base64.getUrlEncoder().withoutPadding().encodeToString(json);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Marker decode(String marker) {
        try {
            return JSON.readValue(Base64.getUrlDecoder().decode(marker), Marker.class);
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw EngineError.invalidField("/marker", "This marker was not made by this engine; pass the 'marker' of the previous page unchanged.");
        }
    }

    List<String> after() {
        return after;
    }

    /** Every value of the parameters, repeated or comma-separated (for enumerations and ids). */
    List<String> split(String... names) {
        List<String> values = new ArrayList<>();
        for (String value : all(names)) {
            Arrays.stream(value.split(",")).map(String::strip).filter(v -> !v.isEmpty()).forEach(values::add);
        }
        return values;
    }

    /** Every value of the parameters as given (free text may hold commas). */
    List<String> all(String... names) {
        List<String> values = new ArrayList<>();
        for (String name : names) {
            query.getOrDefault(name, List.of()).stream().filter(v -> !v.isBlank()).forEach(values::add);
        }
        return values;
    }

    Optional<String> one(String name) {
        List<String> values = all(name);
        if (values.size() > 1) {
            throw EngineError.invalidField("/" + name, "'" + name + "' takes one value.");
        }
        return values.stream().findFirst();
    }

    int limit() {
        String name = query.containsKey("per_page") ? "per_page" : "limit";
        return integer(name, DEFAULT_LIMIT, 1, MAX_LIMIT);
    }

    int integer(String name, int fallback, int min, int max) {
        return whole(name, one(name).orElse(null), fallback, min, max);
    }

    /**
     * A whole-number query parameter ({@code fallback} when absent), refused with a 400 naming it otherwise. Resources
     * take such parameters as strings and read them here: JAX-RS answers an unparsable {@code int} parameter with a
     * bare 404, as if the resource did not exist.
     */
    static int whole(String name, String value, int fallback, int min, int max) {
        try {
            return IntegerParameter.parse(name, value, fallback, min, max);
        } catch (IntegerParameter.Invalid e) {
            throw EngineError.invalidField("/" + name, e.getMessage() + ".");
        }
    }

    /** Globus' boolean query values ("true", "True" from Python clients, "1"). */
    static boolean bool(String name, String value) {
        if (value == null || value.isEmpty()) {
            return false;
        }
        return switch (value.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "1", "yes" -> true;
            case "false", "0", "no" -> false;
            default -> throw EngineError.invalidField("/" + name, name + " must be true or false.");
        };
    }

    /** Globus' time range: "FROM,TO" in ISO 8601, from inclusive, to exclusive; either may be left out. */
    dev.continuum.engine.app.TimeRange range(String name) {
        Optional<String> value = one(name);
        if (value.isEmpty()) {
            return dev.continuum.engine.app.TimeRange.ANY;
        }
        String[] ends = value.get().split(",", -1);
        if (ends.length > 2) {
            throw EngineError.invalidField("/" + name, name + " is FROM,TO (ISO 8601 times; either may be empty).");
        }
        return new dev.continuum.engine.app.TimeRange(instant(name, ends[0]), ends.length == 2 ? instant(name, ends[1]) : Optional.empty());
    }

    private static Optional<Instant> instant(String name, String text) {
        String value = text.strip();
        if (value.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OffsetDateTime.parse(value).toInstant());
        } catch (DateTimeParseException notOffset) {
            try {
                return Optional.of(LocalDateTime.parse(value).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException notLocal) {
                try {
                    return Optional.of(LocalDate.parse(value).atStartOfDay().toInstant(ZoneOffset.UTC));
                } catch (DateTimeParseException notDate) {
                    throw EngineError.invalidField("/" + name, "'" + value + "' is not an ISO 8601 time (e.g. 2026-11-25T08:00:00Z).");
                }
            }
        }
    }

    /** Globus' orderby: "FIELD ASC|DESC" criteria, comma-separated or repeated; fields named by {@code fields}. */
    <F extends Enum<F>> List<dev.continuum.engine.app.Order<F>> order(Map<String, F> fields, List<dev.continuum.engine.app.Order<F>> fallback) {
        List<dev.continuum.engine.app.Order<F>> order = new ArrayList<>();
        for (String criterion : split("orderby")) {
            String[] parts = criterion.trim().split("\\s+");
            F field = fields.get(parts[0].toLowerCase(java.util.Locale.ROOT));
            String direction = parts.length > 1 ? parts[1].toUpperCase(java.util.Locale.ROOT) : "ASC";
            if (field == null || parts.length > 2 || !(direction.equals("ASC") || direction.equals("DESC"))) {
                throw EngineError.invalidField("/orderby", "'" + criterion + "' is not FIELD ASC|DESC with FIELD one of "
                        + fields.keySet().stream().sorted().toList() + ".");
            }
            order.add(new dev.continuum.engine.app.Order<>(field, direction.equals("DESC")));
        }
        return order.isEmpty() ? fallback : order;
    }

    /** Each value must name one of {@code allowed} (a Globus enumeration). */
    static <T> List<T> named(String name, List<String> values, Map<String, T> allowed) {
        List<T> found = new ArrayList<>();
        for (String value : values) {
            T item = allowed.get(value);
            if (item == null) {
                throw EngineError.invalidField("/" + name, "'" + value + "' is not one of " + allowed.keySet().stream().sorted().toList() + ".");
            }
            found.add(item);
        }
        return found;
    }

}
