package dev.continuum.bench.measure;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the bench database cost PostgreSQL: committed transactions and rows written (pg_stat_database
 * xact_commit, pg_stat_user_tables n_tup_ins + n_tup_upd + n_tup_del) and the CPU time of the backends
 * serving it (from /proc, so PostgreSQL must run on this machine). Read through psql, so the bench needs
 * no JDBC driver. Shared work (WAL writer, checkpointer) is not attributed to any database and not counted.
 */
public final class DbCost {

    /** One reading; backend CPU is kept per pid so a backend that appears between two readings counts from zero. */
    public record Reading(long commits, long rowsWritten, Map<Long, Duration> backendCpu) {

        /** What happened between {@code before} and this reading. */
        public Delta since(Reading before) {
            Duration cpu = Duration.ZERO;
            for (Map.Entry<Long, Duration> backend : backendCpu.entrySet()) {
                cpu = cpu.plus(backend.getValue().minus(before.backendCpu.getOrDefault(backend.getKey(), Duration.ZERO)));
            }
            return new Delta(commits - before.commits, rowsWritten - before.rowsWritten, cpu);
        }
    }

    /** Commits and rows written by the database, and its backends' CPU time, over one measured phase. */
    public record Delta(long commits, long rowsWritten, Duration backendCpu) {}

    private static final String QUERY = "SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()),"
            + " (SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) FROM pg_stat_user_tables),"
            + " (SELECT coalesce(string_agg(pid::text, ','), '') FROM pg_stat_activity"
            + "  WHERE datname = current_database() AND pid <> pg_backend_pid())";

    private final String database;
    private final Duration settle;

    /**
     * @param settle how long to wait before a reading: PostgreSQL 15 backends publish their counters at most
     *               once a second while busy and up to 10 s after they go idle
     */
    public DbCost(String database, Duration settle) {
        this.database = database;
        this.settle = settle;
    }

    public Reading read() throws InterruptedException {
        Thread.sleep(settle);
        String[] fields = psql().split("\\|", -1);
        Map<Long, Duration> cpu = new HashMap<>();
        for (String pid : fields[2].split(",")) {
            if (!pid.isBlank()) {
                ProcessCpu.used(Long.parseLong(pid.trim())).ifPresent(used -> cpu.put(Long.parseLong(pid.trim()), used));
            }
        }
        return new Reading(Long.parseLong(fields[0].trim()), Long.parseLong(fields[1].trim()), cpu);
    }

    private String psql() throws InterruptedException {
        try {
            Process process = new ProcessBuilder(List.of("psql", "-X", "-At", "-d", database, "-c", QUERY))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (process.waitFor() != 0 || out.isEmpty()) {
                throw new IllegalStateException("psql could not read the statistics of database " + database);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run psql (needed by --pg-db): " + e.getMessage(), e);
        }
    }

    /** Empty when no database was named: the report then leaves the PostgreSQL columns out. */
    public static Optional<DbCost> of(String database, Duration settle) {
        return database == null || database.isBlank() ? Optional.empty() : Optional.of(new DbCost(database, settle));
    }
}
