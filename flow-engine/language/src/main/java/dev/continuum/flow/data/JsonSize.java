package dev.continuum.flow.data;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.OptionalInt;

/**
 * A cheap bound on the bytes a JSON value takes as text: {@code node.toString().getBytes(UTF_8).length} at most,
 * found by walking the tree and counting what Jackson would write, without writing it. The interpreter checks every
 * state it moves on against the run's size limit; building the String and the byte array for that (and Jackson's
 * per-call set-up) was the check's cost, paid per state entered (issue 17). The bound is exact for strings, names,
 * integers, decimals, booleans and nulls; a floating-point number counts as its longest text; a value this does not
 * know (binary, POJO) or nested deeper than {@link #MAX_DEPTH} gives {@link Long#MAX_VALUE}. So a caller that finds the
 * bound over a limit measures the text itself before deciding, and decides exactly as if it had measured every time.
 */
public final class JsonSize {

    /** Deeper documents go to the caller's exact measure (Jackson's writer, which has its own nesting limit). */
    static final int MAX_DEPTH = 500;
    /** {@code Double.toString}'s longest, e.g. {@code -2.2250738585072014E-308}; floats and quoted NaN are shorter. */
    private static final int LONGEST_FLOATING_POINT = 24;

    private JsonSize() {}

    /** Bytes of {@code node.toString()} as UTF-8, or more (never fewer): see the class comment. */
    public static long atMost(JsonNode node) {
        return value(node, 0);
    }

    /**
     * The exact size of {@code node} as UTF-8 text when it is over {@code limit} bytes, else empty: the bound first,
     * so the text is built only for a value that may be too large, to decide exactly and name its size.
     */
    public static OptionalInt over(JsonNode node, long limit) {
        if (atMost(node) <= limit) {
            return OptionalInt.empty();
        }
        int size = node.toString().getBytes(StandardCharsets.UTF_8).length;
        return size > limit ? OptionalInt.of(size) : OptionalInt.empty();
    }

    private static long value(JsonNode node, int depth) {
        if (depth > MAX_DEPTH) {
            return Long.MAX_VALUE;
        }
        return switch (node.getNodeType()) {
            case OBJECT -> object(node, depth);
            case ARRAY -> array(node, depth);
            case STRING -> text(node.textValue());
            case NUMBER -> number(node);
            case BOOLEAN -> node.booleanValue() ? 4 : 5;
            case NULL -> 4;
            case BINARY, POJO, MISSING -> Long.MAX_VALUE;
        };
    }

    private static long object(JsonNode node, int depth) {
        long bytes = 2 + Math.max(0, node.size() - 1); // braces, commas
        for (Map.Entry<String, JsonNode> field : node.properties()) {
            long value = value(field.getValue(), depth + 1);
            if (value == Long.MAX_VALUE) {
                return Long.MAX_VALUE;
            }
            bytes += text(field.getKey()) + 1 + value; // name, colon, value
        }
        return bytes;
    }

    private static long array(JsonNode node, int depth) {
        long bytes = 2 + Math.max(0, node.size() - 1); // brackets, commas
        for (JsonNode item : node) {
            long value = value(item, depth + 1);
            if (value == Long.MAX_VALUE) {
                return Long.MAX_VALUE;
            }
            bytes += value;
        }
        return bytes;
    }

    private static long number(JsonNode node) {
        if (node.isInt() || node.isLong() || node.isShort()) {
            return digits(node.longValue());
        }
        if (node.isBigInteger()) {
            return node.bigIntegerValue().toString().length();
        }
        if (node.isBigDecimal()) {
            return node.decimalValue().toString().length(); // Jackson's default: BigDecimal.toString, not plain
        }
        return LONGEST_FLOATING_POINT;
    }

    private static int digits(long value) {
        if (value == Long.MIN_VALUE) {
            return 20;
        }
        int digits = value < 0 ? 2 : 1;
        for (long rest = Math.abs(value); rest >= 10; rest /= 10) {
            digits++;
        }
        return digits;
    }

    /**
     * A quoted string as Jackson escapes it by default ({@code "} and {@code \} and the short control escapes take two
     * bytes, other control characters six) and as {@link String#getBytes} encodes the rest: a surrogate pair four
     * bytes, a surrogate without its partner one (the {@code '?'} put in its place).
     */
    private static long text(String s) {
        long bytes = 2;
        for (int i = 0, length = s.length(); i < length; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x80) {
                bytes += c == '"' || c == '\\' ? 2 : 1;
            } else if (c < 0x20) {
                bytes += c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r' ? 2 : 6;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                bytes += 1;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
