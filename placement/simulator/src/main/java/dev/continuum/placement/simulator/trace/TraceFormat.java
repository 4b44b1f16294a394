package dev.continuum.placement.simulator.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** The trace formats the simulator reads, and how to open each as a stream of jobs. */
public enum TraceFormat {
    CONTINUUM, OPENB, HELIOS, PHILLY;

    /** Philly's log is ordered by job; this many jobs are held to sort them by submission. */
    public static final int PHILLY_REORDER_WINDOW = 100_000;

    public TraceReader open(Path path, boolean skipBadLines) {
        return switch (this) {
            case CONTINUUM -> new ContinuumTraceReader(path, skipBadLines);
            case OPENB -> new OpenbPodReader(path, skipBadLines);
            case HELIOS -> new HeliosTraceReader(path, skipBadLines);
            case PHILLY -> new ReorderingReader(new PhillyTraceReader(path, skipBadLines), PHILLY_REORDER_WINDOW);
        };
    }

    public static TraceFormat parse(String name) {
        return valueOf(name.trim().toUpperCase(Locale.ROOT));
    }

    /** Guesses the format from the first line: JSON means Philly, else the CSV header decides. */
    public static TraceFormat detect(Path path) {
        try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            String first = in.readLine();
            if (first == null) {
                throw new TraceFormatException(path.toString(), 1, 1, "empty file");
            }
            String h = first.strip();
            if (h.startsWith("[") || h.startsWith("{")) {
                return PHILLY;
            }
            if (h.contains("num_gpu") && h.contains("gpu_milli")) {
                return OPENB;
            }
            if (h.contains("job_id") && h.contains("gpu_num")) {
                return HELIOS;
            }
            if (h.contains("arrival") && h.contains("duration")) {
                return CONTINUUM;
            }
            throw new TraceFormatException(path.toString(), 1, 1,
                    "cannot tell the trace format from this header; pass --format (continuum, openb, helios, philly)");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + path, e);
        }
    }
}
