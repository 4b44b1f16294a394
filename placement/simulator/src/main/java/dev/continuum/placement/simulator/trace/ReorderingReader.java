package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Job;

import java.util.Comparator;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * Sorts a nearly sorted stream by arrival within a window of {@code window} jobs (Philly's log is
 * ordered by job, not by submission). A job that arrives later than the window can fix is
 * released at the time of the last job released, and counted in {@link #late()}.
 */
public final class ReorderingReader implements TraceReader {
    private record Held(Job job, long seq) {
    }

    private final TraceReader source;
    private final int window;
    private final PriorityQueue<Held> buffer = new PriorityQueue<>(
            Comparator.comparingLong((Held h) -> h.job.arrival()).thenComparingLong(Held::seq));
    private long seq;
    private long lastReleased = Long.MIN_VALUE;
    private long late;

    public ReorderingReader(TraceReader source, int window) {
        this.source = source;
        this.window = window;
    }

    public long late() {
        return late;
    }

    @Override
    public boolean hasNext() {
        while (buffer.size() < window && source.hasNext()) {
            buffer.add(new Held(source.next(), seq++));
        }
        return !buffer.isEmpty();
    }

    @Override
    public Job next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Job j = buffer.poll().job;
        if (j.arrival() < lastReleased) {
            late++;
            j = j.withArrival(lastReleased);
        }
        lastReleased = j.arrival();
        return j;
    }

    @Override public long skippedLines() { return source.skippedLines(); }
    @Override public long filteredRecords() { return source.filteredRecords(); }
    @Override public void close() { source.close(); }
}
