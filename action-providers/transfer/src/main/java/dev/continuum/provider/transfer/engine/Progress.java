package dev.continuum.provider.transfer.engine;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** Counters of one running transfer, updated by the workers and read by whoever reports progress. */
public final class Progress {

    final AtomicLong bytesTotal = new AtomicLong();
    final AtomicLong bytesDone = new AtomicLong();
    final AtomicLong bytesResumed = new AtomicLong();
    final AtomicLong filesTotal = new AtomicLong();
    final AtomicLong filesDone = new AtomicLong();
    final AtomicLong filesSkipped = new AtomicLong();
    final AtomicLong checksumMismatches = new AtomicLong();
    final AtomicLong retries = new AtomicLong();
    private final long startNanos = System.nanoTime();

    /** A consistent-enough view for status details. */
    public Snapshot snapshot() {
        double seconds = Math.max(1e-3, (System.nanoTime() - startNanos) / 1e9);
        long sent = bytesDone.get() - bytesResumed.get();
        double rate = sent / seconds;
        long remaining = Math.max(0, bytesTotal.get() - bytesDone.get());
        Long eta = rate > 0 ? (long) Math.ceil(remaining / rate) : null;
        return new Snapshot(bytesTotal.get(), bytesDone.get(), bytesResumed.get(), filesTotal.get(), filesDone.get(),
                filesSkipped.get(), checksumMismatches.get(), retries.get(), (long) rate, eta,
                Duration.ofNanos(System.nanoTime() - startNanos));
    }

    /**
     * @param bytesTotal         bytes of all files to send (skipped files excluded)
     * @param bytesDone          bytes verified at the destination, including those found in the journal
     * @param bytesResumed       of those, bytes verified by an earlier run and not sent again
     * @param rateBytesPerSecond bytes sent by this run per second of this run
     * @param etaSeconds         at that rate, until done; null before anything was sent
     */
    public record Snapshot(long bytesTotal, long bytesDone, long bytesResumed, long filesTotal, long filesDone,
                           long filesSkipped, long checksumMismatches, long retries, long rateBytesPerSecond,
                           Long etaSeconds, Duration elapsed) {}
}
