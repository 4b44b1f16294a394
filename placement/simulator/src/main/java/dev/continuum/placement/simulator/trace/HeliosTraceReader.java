package dev.continuum.placement.simulator.trace;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.model.Job;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Set;

/**
 * Helios {@code cluster_log.csv}: {@code job_id,user,vc,gpu_num,cpu_num,node_num,state,
 * submit_time,start_time,end_time,duration,queue}. Times are epoch seconds or
 * {@code yyyy-MM-dd HH:mm:ss} (UTC). The virtual cluster ({@code vc}) becomes the partition.
 * CPU-only jobs are left out (counted as filtered), as in the Helios simulator.
 */
public final class HeliosTraceReader extends CsvTraceReader {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");

    public HeliosTraceReader(Path path, boolean skipBadLines) {
        super(path, skipBadLines);
    }

    @Override
    protected List<String> requiredColumns() {
        return List.of("job_id", "gpu_num", "submit_time", "duration");
    }

    @Override
    protected Job toJob(CsvRecord r) {
        String id = r.text("job_id");
        if (id.isEmpty()) {
            throw r.error("job_id", "column 'job_id' is empty");
        }
        int gpus = (int) ContinuumTraceReader.nonNegative(r, "gpu_num");
        long arrival = time(r, "submit_time");
        long duration = ContinuumTraceReader.nonNegative(r, "duration");
        if (gpus == 0) {
            return null;
        }
        long cpu = r.has("cpu_num") ? Math.round(r.doubleValue("cpu_num") * 1000) : 0;
        Demand d = new Demand(gpus, 1000, Set.of(), cpu, 0);
        return new Job(id, r.text("user"), r.text("vc"), arrival, d, duration, 0, true, true, gpus, gpus, 0);
    }

    static long time(CsvRecord r, String column) {
        String s = r.text(column);
        if (s.isEmpty()) {
            throw r.error(column, "column '" + column + "' is empty");
        }
        if (Character.isDigit(s.charAt(0)) && s.indexOf('-') < 0) {
            return ContinuumTraceReader.nonNegative(r, column);
        }
        try {
            return LocalDateTime.parse(s, TIME).toEpochSecond(ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            throw r.error(column, "column '" + column + "' must be epoch seconds or yyyy-MM-dd HH:mm:ss, was '" + s + "'");
        }
    }
}
