package dev.continuum.placement.simulator.trace;

/** A malformed trace record, located as {@code file:line:column} (1-based) like a compiler error. */
public final class TraceFormatException extends RuntimeException {
    private final String file;
    private final long line;
    private final long column;

    public TraceFormatException(String file, long line, long column, String problem) {
        super(file + ":" + line + ":" + column + ": " + problem);
        this.file = file;
        this.line = line;
        this.column = column;
    }

    public String file() { return file; }
    public long line() { return line; }
    public long column() { return column; }
}
