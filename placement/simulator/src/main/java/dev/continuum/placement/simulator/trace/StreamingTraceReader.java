package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Job;

import java.util.NoSuchElementException;

/**
 * The loop every file reader shares: pull one record at a time, turn it into a {@link Job} or
 * leave it out (counted as filtered), and on a malformed record either stop with its location
 * or skip and count it. Subclasses only find records and read one.
 */
abstract class StreamingTraceReader implements TraceReader {
    private final boolean skipBadLines;
    private long skipped;
    private long filtered;
    private Job next;

    protected StreamingTraceReader(boolean skipBadLines) {
        this.skipBadLines = skipBadLines;
    }

    /** Moves to the next record; false at the end of the file. */
    protected abstract boolean nextRecord();

    /**
     * The job of the current record, or null when the format leaves it out.
     *
     * @throws TraceFormatException where the record is malformed
     */
    protected abstract Job readRecord();

    /** Locates an error the model raised (e.g. an impossible demand) at the current record. */
    protected abstract TraceFormatException locate(IllegalArgumentException e);

    @Override
    public final boolean hasNext() {
        while (next == null) {
            if (!nextRecord()) {
                return false;
            }
            try {
                next = readRecord();
                if (next == null) {
                    filtered++;
                }
            } catch (TraceFormatException | IllegalArgumentException e) {
                TraceFormatException located = e instanceof TraceFormatException t ? t
                        : locate((IllegalArgumentException) e);
                if (!skipBadLines) {
                    throw located;
                }
                skipped++;
            }
        }
        return true;
    }

    @Override
    public final Job next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Job j = next;
        next = null;
        return j;
    }

    @Override public long skippedLines() { return skipped; }
    @Override public long filteredRecords() { return filtered; }
}
