package dev.continuum.engine.adapters.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * New runs written to PostgreSQL, alone or many in one statement (group commit across run starts):
 * per run, the run and its first log entries land together, and a start is answered only once its
 * statement committed.
 */
final class RunInserts {

    /** One new run, serialised once: JSON as text, times as the reactive client binds them. */
    record NewRun(UUID id, UUID flowId, int flowVersion, String ownerId, String status, String label, String tags,
                  String state, OffsetDateTime nextWakeAt, String leaseOwner, OffsetDateTime leaseUntil, int logged,
                  OffsetDateTime createdAt, OffsetDateTime completedAt, String runManagers, String runMonitors,
                  String logRows, boolean ifCurrent) {}

    private final Pool pool;

    RunInserts(Pool pool) {
        this.pool = pool;
    }

    Uni<Boolean> one(NewRun r) {
        return pool.preparedQuery(RunStatements.INSERT_ONE).execute(Tuple.from(new Object[]{r.id(), r.flowId(), r.flowVersion(), r.ownerId(),
                        r.status(), r.label(), r.tags(), r.state(), r.nextWakeAt(), r.leaseOwner(), r.leaseUntil(), r.logged(),
                        r.createdAt(), r.completedAt(), "[" + r.logRows() + "]", r.runManagers(), r.runMonitors(),
                        r.ifCurrent()}))
                .map(rows -> rows.rowCount() > 0);
    }

    /**
     * One statement, one transaction: every run of the batch is inserted (but those whose flow changed, when they
     * asked for the check), or (on failure) none. Per run, in order, whether it was inserted.
     */
    Uni<List<Boolean>> many(List<NewRun> batch) {
        StringBuilder rows = new StringBuilder("[");
        for (NewRun r : batch) {
            if (!r.logRows().isEmpty()) {
                rows.append(rows.length() > 1 ? "," : "").append(r.logRows());
            }
        }
        return pool.preparedQuery(RunStatements.INSERT_MANY).execute(Tuple.from(new Object[]{
                        column(batch, NewRun::id, UUID[]::new), column(batch, NewRun::flowId, UUID[]::new),
                        column(batch, NewRun::flowVersion, Integer[]::new), column(batch, NewRun::ownerId, String[]::new),
                        column(batch, NewRun::status, String[]::new), column(batch, NewRun::label, String[]::new),
                        column(batch, NewRun::tags, String[]::new), column(batch, NewRun::state, String[]::new),
                        column(batch, NewRun::nextWakeAt, OffsetDateTime[]::new),
                        column(batch, NewRun::leaseOwner, String[]::new),
                        column(batch, NewRun::leaseUntil, OffsetDateTime[]::new),
                        column(batch, NewRun::logged, Integer[]::new), column(batch, NewRun::createdAt, OffsetDateTime[]::new),
                        column(batch, NewRun::completedAt, OffsetDateTime[]::new),
                        column(batch, NewRun::runManagers, String[]::new), column(batch, NewRun::runMonitors, String[]::new),
                        rows.append(']').toString(), column(batch, NewRun::ifCurrent, Boolean[]::new)}))
                .map(inserted -> {
                    Set<UUID> ids = new HashSet<>();
                    inserted.forEach(row -> ids.add(row.getUUID(0)));
                    return batch.stream().map(r -> ids.contains(r.id())).toList();
                });
    }

    private static <V> V[] column(List<NewRun> batch, Function<NewRun, V> field, java.util.function.IntFunction<V[]> array) {
        return batch.stream().map(field).toArray(array);
    }
}
