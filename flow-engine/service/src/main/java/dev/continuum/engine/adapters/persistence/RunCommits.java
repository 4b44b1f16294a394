package dev.continuum.engine.adapters.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Runs' turns written to PostgreSQL: one run's alone, or many runs' in one statement (group commit).
 * Each run's checks stay its own in both: a row is written only while the committing instance holds
 * that run's lease and the run has not moved on since the turn's state was read, so a lost lease
 * refuses that run's turn and no other in the statement.
 */
final class RunCommits {

    private final Pool pool;

    RunCommits(Pool pool) {
        this.pool = pool;
    }

    /** True once the turn is committed; false when the run's lease was lost or the run moved on. */
    Uni<Boolean> one(RunCommit c) {
        return pool.preparedQuery(RunStatements.COMMIT_ONE).execute(Tuple.from(new Object[]{c.runId(), c.leaseOwner(), c.state(), c.status(),
                        c.logged(), c.nextWakeAt(), c.now(), c.leaseUntil(), c.active(),
                        c.consumedInbox().toArray(new Long[0]), "[" + c.logRows() + "]", c.basedOn(), c.listener()}))
                .map(rows -> rows.rowCount() > 0);
    }

    /** One statement, one transaction: per turn, in order, whether it was committed. */
    Uni<List<Boolean>> many(List<RunCommit> batch) {
        int n = batch.size();
        UUID[] ids = new UUID[n];
        String[] owners = new String[n];
        OffsetDateTime[] basedOn = new OffsetDateTime[n];
        String[] states = new String[n];
        String[] statuses = new String[n];
        Integer[] logged = new Integer[n];
        OffsetDateTime[] wake = new OffsetDateTime[n];
        OffsetDateTime[] now = new OffsetDateTime[n];
        OffsetDateTime[] leaseUntil = new OffsetDateTime[n];
        Boolean[] active = new Boolean[n];
        String[] listeners = new String[n];
        List<Long> consumed = new ArrayList<>();
        StringBuilder rows = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            RunCommit c = batch.get(i);
            ids[i] = c.runId();
            owners[i] = c.leaseOwner();
            basedOn[i] = c.basedOn();
            states[i] = c.state();
            statuses[i] = c.status();
            logged[i] = c.logged();
            wake[i] = c.nextWakeAt();
            now[i] = c.now();
            leaseUntil[i] = c.leaseUntil();
            active[i] = c.active();
            listeners[i] = c.listener();
            consumed.addAll(c.consumedInbox());
            if (!c.logRows().isEmpty()) {
                rows.append(rows.length() > 1 ? "," : "").append(c.logRows());
            }
        }
        return pool.preparedQuery(RunStatements.COMMIT_MANY).execute(Tuple.from(new Object[]{ids, owners, basedOn, states, statuses, logged,
                        wake, now, leaseUntil, active, consumed.toArray(new Long[0]), rows.append(']').toString(), listeners}))
                .map(written -> {
                    Set<UUID> committed = ids(written);
                    return batch.stream().map(c -> committed.contains(c.runId())).toList();
                });
    }

    private static Set<UUID> ids(RowSet<Row> rows) {
        Set<UUID> ids = new HashSet<>();
        rows.forEach(row -> ids.add(row.getUUID(0)));
        return ids;
    }
}
