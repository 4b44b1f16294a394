package dev.continuum.placement.trace;

import dev.continuum.placement.model.Job;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * Streams a CSV trace with a header line, turning each line into a {@link Job} (or nothing, for a
 * record the format leaves out). A malformed line throws {@link TraceFormatException} naming the
 * file, line and column, or is skipped and counted when skipping is on.
 */
public abstract class CsvTraceReader implements TraceReader {
    private final String file;
    private final BufferedReader in;
    private final boolean skipBadLines;
    private final Map<String, Integer> header = new HashMap<>();
    private long lineNumber;
    private long skipped;
    private long filtered;
    private Job next;

    protected CsvTraceReader(Path path, boolean skipBadLines) {
        this.file = path.toString();
        this.skipBadLines = skipBadLines;
        try {
            this.in = Files.newBufferedReader(path, StandardCharsets.UTF_8);
            String first = in.readLine();
            lineNumber = 1;
            if (first == null) {
                throw new TraceFormatException(file, 1, 1, "empty file: expected a header line");
            }
            List<String> names = CsvRecord.parse(file, 1, stripBom(first), Map.of()).fields();
            for (int i = 0; i < names.size(); i++) {
                header.put(names.get(i).trim(), i);
            }
            for (String required : requiredColumns()) {
                if (!header.containsKey(required)) {
                    throw new TraceFormatException(file, 1, 1, "header lacks column '" + required + "' (has " + names + ")");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    private static String stripBom(String s) {
        return s.startsWith("\uFEFF") ? s.substring(1) : s;
    }

    protected abstract List<String> requiredColumns();

    /** The job of one line, or null when the format leaves this record out. */
    protected abstract Job toJob(CsvRecord r);

    protected Map<String, Integer> header() {
        return header;
    }

    @Override
    public boolean hasNext() {
        while (next == null) {
            String line;
            try {
                line = in.readLine();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file + " after line " + lineNumber, e);
            }
            if (line == null) {
                return false;
            }
            lineNumber++;
            if (line.isBlank()) {
                continue;
            }
            try {
                CsvRecord r = CsvRecord.parse(file, lineNumber, line, header);
                if (r.size() > header.size()) {
                    throw new TraceFormatException(file, lineNumber, 1,
                            "line has " + r.size() + " fields, header has " + header.size());
                }
                next = toJob(r);
                if (next == null) {
                    filtered++;
                }
            } catch (TraceFormatException | IllegalArgumentException e) {
                TraceFormatException located = e instanceof TraceFormatException t ? t
                        : new TraceFormatException(file, lineNumber, 1, e.getMessage());
                if (!skipBadLines) {
                    throw located;
                }
                skipped++;
            }
        }
        return true;
    }

    @Override
    public Job next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Job j = next;
        next = null;
        return j;
    }

    @Override public long skippedLines() { return skipped; }
    @Override public long filteredRecords() { return filtered; }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing useful to do: the file was only read
        }
    }
}
