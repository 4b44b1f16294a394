package dev.continuum.placement.simulator.report;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Just enough JSON for metrics.json: maps, lists, number pairs, numbers, strings. Written by hand
 * so that a simulation run loads no JSON library (Jackson was ~500 of the ~2,400 classes a run
 * loaded, a noticeable part of the process start).
 */
final class JsonText {
    private JsonText() {
    }

    /** Indented JSON for maps, lists, {@code double[]} (written inline), numbers, booleans and strings. */
    static String of(Object value) {
        StringBuilder sb = new StringBuilder();
        write(sb, value, 0);
        return sb.append('\n').toString();
    }

    private static void write(StringBuilder sb, Object v, int depth) {
        switch (v) {
            case null -> sb.append("null");
            case Map<?, ?> m -> {
                sb.append('{');
                int i = 0;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    sb.append(i++ == 0 ? "\n" : ",\n");
                    indent(sb, depth + 1);
                    string(sb, String.valueOf(e.getKey()));
                    sb.append(" : ");
                    write(sb, e.getValue(), depth + 1);
                }
                close(sb, m.isEmpty(), depth, '}');
            }
            case List<?> l -> {
                sb.append('[');
                int i = 0;
                for (Object o : l) {
                    sb.append(i++ == 0 ? "\n" : ",\n");
                    indent(sb, depth + 1);
                    write(sb, o, depth + 1);
                }
                close(sb, l.isEmpty(), depth, ']');
            }
            case double[] a -> {
                sb.append('[');
                for (int i = 0; i < a.length; i++) {
                    sb.append(i == 0 ? "" : ", ");
                    number(sb, a[i]);
                }
                sb.append(']');
            }
            case Double d -> number(sb, d);
            case Number n -> sb.append(n);
            case Boolean b -> sb.append(b);
            default -> string(sb, v.toString());
        }
    }

    private static void close(StringBuilder sb, boolean empty, int depth, char bracket) {
        if (!empty) {
            sb.append('\n');
            indent(sb, depth);
        }
        sb.append(bracket);
    }

    private static void number(StringBuilder sb, double d) {
        sb.append(Double.isFinite(d) ? Double.toString(d) : "null"); // JSON has no NaN or infinity
    }

    private static void indent(StringBuilder sb, int depth) {
        sb.repeat("  ", depth);
    }

    private static void string(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
