package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Job;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Streams a CSV trace with a header line, turning each line into a {@link Job} (or nothing, for a
 * record the format leaves out). A malformed line throws {@link TraceFormatException} naming the
 * file, line and column, or is skipped and counted when skipping is on.
 */
public abstract class CsvTraceReader extends StreamingTraceReader {
    private final String file;
    private final BufferedReader in;
    private final Map<String, Integer> header = new HashMap<>();
    private long lineNumber;
    private String line;

    protected CsvTraceReader(Path path, boolean skipBadLines) {
        super(skipBadLines);
        this.file = path.toString();
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
    protected boolean nextRecord() {
        try {
            do {
                line = in.readLine();
                if (line == null) {
                    return false;
                }
                lineNumber++;
            } while (line.isBlank());
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + " after line " + lineNumber, e);
        }
    }

    @Override
    protected Job readRecord() {
        CsvRecord r = CsvRecord.parse(file, lineNumber, line, header);
        if (r.size() > header.size()) {
            throw new TraceFormatException(file, lineNumber, 1, "line has " + r.size() + " fields, header has " + header.size());
        }
        return toJob(r);
    }

    @Override
    protected TraceFormatException locate(IllegalArgumentException e) {
        return new TraceFormatException(file, lineNumber, 1, e.getMessage());
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing useful to do: the file was only read
        }
    }
}
