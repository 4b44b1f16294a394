package dev.continuum.edge.gateway.resources;

import dev.continuum.edge.protocol.GpuInfo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The gateway's GPU readings: {@code nvidia-smi} run on its own thread every {@code interval} (the next run starts an
 * interval after the last one ended, so runs never pile up behind a slow driver), the last reading kept for the
 * heartbeat, which reads it without waiting — also on the MQTT event loop. When the tool is missing or fails the
 * reading is empty, so the heartbeat sends no GPUs and the planner treats the device as CPU-only; the reason is
 * logged once ("no GPU found: …"), and again only after GPUs were found in between.
 */
public final class GpuPoller implements Supplier<List<GpuInfo>>, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(GpuPoller.class.getName());

    private final NvidiaSmi smi;
    private final Duration interval;
    private volatile NvidiaSmi.Reading last = NvidiaSmi.Reading.none("not read yet");
    private String reported; // the state last logged: a problem, "" for GPUs found, null for nothing yet
    private ScheduledExecutorService thread;

    public GpuPoller(NvidiaSmi smi, Duration interval) {
        if (interval.isNegative() || interval.isZero()) {
            throw new IllegalArgumentException("GPU poll interval must be positive");
        }
        this.smi = smi;
        this.interval = interval;
    }

    /** Starts polling now (the first reading is taken at once); again after {@link #close()} it starts anew. */
    public synchronized void start() {
        if (thread != null) {
            return;
        }
        thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "gateway-gpu-poll");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::poll, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Takes one reading now, on the caller's thread (blocks up to the tool's timeout). */
    public NvidiaSmi.Reading poll() {
        NvidiaSmi.Reading reading;
        try {
            reading = smi.read();
        } catch (RuntimeException e) {
            reading = NvidiaSmi.Reading.none(String.valueOf(e));
        }
        last = reading;
        report(reading);
        return reading;
    }

    private synchronized void report(NvidiaSmi.Reading reading) {
        if (!reading.ok() && (reported == null || reported.isEmpty())) {
            LOG.warning("no GPU found: " + reading.problem() + "; heartbeats carry no GPUs (CPU-only device)");
            reported = reading.problem();
        } else if (reading.ok() && !"".equals(reported)) {
            LOG.info("GPUs found: " + reading.gpus().stream().map(g -> g.index() + " " + g.model()).toList());
            reported = "";
        }
    }

    /** The last reading's GPUs; empty when none was found (or before the first reading). */
    @Override
    public List<GpuInfo> get() {
        return last.gpus();
    }

    /** The last reading, with the reason when there are no GPUs. */
    public NvidiaSmi.Reading last() {
        return last;
    }

    @Override
    public synchronized void close() {
        if (thread != null) {
            thread.shutdownNow();
            thread = null;
        }
    }
}
