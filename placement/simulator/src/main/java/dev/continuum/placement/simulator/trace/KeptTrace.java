package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Job;

import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A trace read once and kept in memory, so that several policies replay it without reading or
 * generating it again. Jobs are immutable, so readers on several threads share them.
 */
public final class KeptTrace {
    private final List<Job> jobs;
    private final long skippedLines;
    private final long filteredRecords;

    private KeptTrace(List<Job> jobs, long skippedLines, long filteredRecords) {
        this.jobs = List.copyOf(jobs);
        this.skippedLines = skippedLines;
        this.filteredRecords = filteredRecords;
    }

    /** Reads the whole of {@code source} and closes it. */
    public static KeptTrace readAll(TraceReader source) {
        try (source) {
            List<Job> jobs = new ArrayList<>();
            source.forEachRemaining(jobs::add);
            return new KeptTrace(jobs, source.skippedLines(), source.filteredRecords());
        }
    }

    public int size() {
        return jobs.size();
    }

    /** A new reader from the first job. */
    public TraceReader reader() {
        return new TraceReader() {
            private int next;

            @Override public boolean hasNext() { return next < jobs.size(); }
            @Override public long skippedLines() { return skippedLines; }
            @Override public long filteredRecords() { return filteredRecords; }
            @Override public void close() { }

            @Override
            public Job next() {
                if (next >= jobs.size()) {
                    throw new NoSuchElementException();
                }
                return jobs.get(next++);
            }
        };
    }
}
