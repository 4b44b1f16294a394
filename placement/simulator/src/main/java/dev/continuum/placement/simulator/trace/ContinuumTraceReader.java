package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The simulator's own CSV format (documented in docs/simulator.md). Required columns:
 * {@code id,arrival,duration,gpus}; optional: {@code gpu_milli,cpu_milli,memory_mib,user,
 * partition,gpu_model} ('|'-separated list){@code ,priority,preemptible,migratable,min_gpus,
 * max_gpus,deadline}. Times in seconds.
 */
public final class ContinuumTraceReader extends CsvTraceReader {
    public static final List<String> COLUMNS = List.of("id", "arrival", "duration", "gpus", "gpu_milli", "cpu_milli",
            "memory_mib", "user", "partition", "gpu_model", "priority", "preemptible", "migratable", "min_gpus",
            "max_gpus", "deadline");

    public ContinuumTraceReader(Path path, boolean skipBadLines) {
        super(path, skipBadLines);
    }

    @Override
    protected List<String> requiredColumns() {
        return List.of("id", "arrival", "duration", "gpus");
    }

    @Override
    protected Job toJob(CsvRecord r) {
        String id = r.text("id");
        if (id.isEmpty()) {
            throw r.error("id", "column 'id' is empty");
        }
        long arrival = nonNegative(r, "arrival");
        long duration = nonNegative(r, "duration");
        int gpus = (int) nonNegative(r, "gpus");
        int milli = (int) r.longValue("gpu_milli", gpus == 0 ? 0 : 1000);
        if (gpus > 0 && (milli <= 0 || milli > 1000)) {
            throw r.error("gpu_milli", "column 'gpu_milli' must be in 1..1000, was " + milli);
        }
        if (milli < 1000 && gpus > 1) {
            throw r.error("gpu_milli", "a fractional gpu_milli needs gpus = 1, was " + gpus);
        }
        Set<String> models = r.nameSet("gpu_model");
        Demand demand = new Demand(gpus, milli, models, r.longValue("cpu_milli", 0), r.longValue("memory_mib", 0));
        return new Job(id, r.text("user"), r.text("partition"), arrival, demand, duration,
                (int) r.longValue("priority", 0), r.bool("preemptible", true), r.bool("migratable", true),
                (int) r.longValue("min_gpus", gpus), (int) r.longValue("max_gpus", gpus), r.longValue("deadline", 0));
    }

    static long nonNegative(CsvRecord r, String column) {
        long v = r.longValue(column);
        if (v < 0) {
            throw r.error(column, "column '" + column + "' must be >= 0, was " + v);
        }
        return v;
    }
}
