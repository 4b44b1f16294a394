package dev.continuum.placement.simulator.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * One CSV line split into fields, remembering where each field starts so that errors can point
 * at the column. Supports double-quoted fields with "" escapes.
 */
public final class CsvRecord {
    private final String file;
    private final long lineNumber;
    private final List<String> fields;
    private final List<Integer> starts;
    private final Map<String, Integer> header;

    private CsvRecord(String file, long lineNumber, List<String> fields, List<Integer> starts, Map<String, Integer> header) {
        this.file = file;
        this.lineNumber = lineNumber;
        this.fields = fields;
        this.starts = starts;
        this.header = header;
    }

    public static CsvRecord parse(String file, long lineNumber, String line, Map<String, Integer> header) {
        List<String> fields = new ArrayList<>();
        List<Integer> starts = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        int start = 0;
        boolean quoted = false;
        int i = 0;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"' && cur.isEmpty()) {
                quoted = true;
            } else if (c == ',') {
                fields.add(cur.toString());
                starts.add(start);
                cur.setLength(0);
                start = i + 1;
            } else {
                cur.append(c);
            }
            i++;
        }
        if (quoted) {
            throw new TraceFormatException(file, lineNumber, line.length() + 1, "unterminated quoted field");
        }
        fields.add(cur.toString());
        starts.add(start);
        return new CsvRecord(file, lineNumber, fields, starts, header);
    }

    public int size() { return fields.size(); }
    public List<String> fields() { return fields; }

    public TraceFormatException error(String column, String problem) {
        Integer idx = header.get(column);
        long col = idx == null || idx >= starts.size() ? 1 : starts.get(idx) + 1;
        return new TraceFormatException(file, lineNumber, col, problem);
    }

    public boolean has(String column) {
        Integer idx = header.get(column);
        return idx != null && idx < fields.size() && !fields.get(idx).isBlank() && !fields.get(idx).equalsIgnoreCase("nan");
    }

    public String text(String column) {
        Integer idx = header.get(column);
        if (idx == null) {
            return "";
        }
        if (idx >= fields.size()) {
            throw new TraceFormatException(file, lineNumber, lastColumn(), "line ends before column '" + column
                    + "' (" + fields.size() + " of " + header.size() + " fields): truncated?");
        }
        return fields.get(idx).trim();
    }

    private long lastColumn() {
        return starts.getLast() + fields.getLast().length() + 1;
    }

    /**
     * A '|'-separated list of names, as a set: Alibaba's openb files list a GPU model twice in
     * some rows ({@code V100M16|V100M32|V100M32}); a repeat in a list of allowed models means
     * nothing, so it is dropped, as are empty entries. Empty when the column is absent or blank.
     */
    public Set<String> nameSet(String column) {
        if (!has(column)) {
            return Set.of();
        }
        Set<String> names = new LinkedHashSet<>();
        for (String part : text(column).split("\\|")) {
            if (!part.isBlank()) {
                names.add(part.trim());
            }
        }
        return names;
    }

    public long longValue(String column) {
        String s = text(column);
        try {
            if (s.indexOf('.') >= 0 || s.indexOf('e') >= 0 || s.indexOf('E') >= 0) {
                return Math.round(Double.parseDouble(s));
            }
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            throw error(column, "column '" + column + "' must be a number, was '" + s + "'");
        }
    }

    public long longValue(String column, long fallback) {
        return has(column) ? longValue(column) : fallback;
    }

    public double doubleValue(String column) {
        String s = text(column);
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw error(column, "column '" + column + "' must be a number, was '" + s + "'");
        }
    }

    public boolean bool(String column, boolean fallback) {
        if (!has(column)) {
            return fallback;
        }
        String s = text(column).toLowerCase();
        return switch (s) {
            case "true", "1", "yes", "y" -> true;
            case "false", "0", "no", "n" -> false;
            default -> throw error(column, "column '" + column + "' must be true or false, was '" + s + "'");
        };
    }
}
