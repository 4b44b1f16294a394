package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Job;

import java.io.Closeable;
import java.util.Iterator;

/** A stream of jobs read lazily from a trace file, in arrival order. */
public interface TraceReader extends Iterator<Job>, Closeable {
    /** Malformed lines skipped so far (only with skipping on; otherwise they throw). */
    long skippedLines();

    /** Well-formed records left out on purpose (e.g. CPU-only jobs, jobs that never ran). */
    default long filteredRecords() {
        return 0;
    }

    @Override
    void close();
}
