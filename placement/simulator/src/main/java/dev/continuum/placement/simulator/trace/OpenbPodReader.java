package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Alibaba 2023 {@code openb} pod list: {@code name,cpu_milli,memory_mib,num_gpu,gpu_milli,
 * gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time}. A pod arrives at its
 * creation time and runs from scheduling (or creation) to deletion. Files without times (the
 * resampled {@code multigpu50} list) give arrival = row number and duration 0: usable only by
 * the fill experiment, which ignores time. Latency-sensitive ({@code LS}) pods are not
 * preemptible. A pod the trace never scheduled (no {@code scheduled_time}, phase {@code Pending})
 * never ran, so by default it is left out and counted in {@link #filteredRecords()} rather than
 * replayed as if it had run from creation to deletion; the fill experiment, which samples task
 * shapes and ignores time, keeps it (as the FGD authors' simulator does).
 */
public final class OpenbPodReader extends CsvTraceReader {
    private final boolean keepNeverScheduled;
    private long row;

    public OpenbPodReader(Path path, boolean skipBadLines) {
        this(path, skipBadLines, false);
    }

    /** @param keepNeverScheduled also return pods without {@code scheduled_time} (arrival = creation) */
    public OpenbPodReader(Path path, boolean skipBadLines, boolean keepNeverScheduled) {
        super(path, skipBadLines);
        this.keepNeverScheduled = keepNeverScheduled;
    }

    @Override
    protected List<String> requiredColumns() {
        return List.of("name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli");
    }

    @Override
    protected Job toJob(CsvRecord r) {
        row++;
        String name = r.text("name");
        if (name.isEmpty()) {
            throw r.error("name", "column 'name' is empty");
        }
        int gpus = (int) ContinuumTraceReader.nonNegative(r, "num_gpu");
        int milli = (int) ContinuumTraceReader.nonNegative(r, "gpu_milli");
        if (gpus > 0 && (milli == 0 || milli > 1000)) {
            throw r.error("gpu_milli", "column 'gpu_milli' must be in 1..1000 for a GPU pod, was " + milli);
        }
        if (gpus > 1 && milli < 1000) {
            throw r.error("gpu_milli", "a pod with " + gpus + " GPUs cannot share them (gpu_milli " + milli + ")");
        }
        Set<String> models = r.nameSet("gpu_spec");
        Demand d = new Demand(gpus, gpus == 0 ? 0 : milli, models, ContinuumTraceReader.nonNegative(r, "cpu_milli"),
                ContinuumTraceReader.nonNegative(r, "memory_mib"));
        long arrival;
        long duration;
        if (header().containsKey("creation_time")) {
            if (!keepNeverScheduled && header().containsKey("scheduled_time") && !r.has("scheduled_time")) {
                return null; // Pending in the trace: never scheduled, so it has no run to replay
            }
            arrival = ContinuumTraceReader.nonNegative(r, "creation_time");
            long deletion = ContinuumTraceReader.nonNegative(r, "deletion_time");
            long start = r.longValue("scheduled_time", arrival);
            if (deletion < arrival) {
                throw r.error("deletion_time", "deletion_time " + deletion + " is before creation_time " + arrival);
            }
            duration = Math.max(0, deletion - Math.max(arrival, start));
        } else {
            arrival = row;
            duration = 0;
        }
        boolean latencySensitive = "LS".equalsIgnoreCase(r.text("qos"));
        return new Job(name, "", "", arrival, d, duration, latencySensitive ? 1 : 0, !latencySensitive, true,
                gpus, gpus, 0);
    }
}
