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

    /** Each turn's log as one row of a JSON array (its run and its entries), expanded in SQL: one run_log row per turn. */
    static final String TURN_ROWS = "jsonb_to_recordset(%s::text::jsonb) AS e(run_id uuid, entries jsonb)";

    /** One run: the statement a batch of one uses, and each turn of a failed batch on its own. */
    private static final String ONE = """
            WITH updated AS (
                UPDATE runs SET state = $3::text::jsonb, status = $4, event_seq = event_seq + $5,
                       next_wake_at = CASE WHEN $9::boolean AND EXISTS (SELECT 1 FROM run_inbox i WHERE i.run_id = $1
                                                 AND NOT (i.id = ANY($10::bigint[]))) THEN $7::timestamptz ELSE $6::timestamptz END,
                       lease_owner = CASE WHEN $8::timestamptz IS NULL THEN NULL ELSE lease_owner END,
                       lease_until = $8::timestamptz, updated_at = $7::timestamptz,
                       completed_at = CASE WHEN $9::boolean THEN completed_at ELSE COALESCE(completed_at, $7::timestamptz) END,
                       listener = $13
                WHERE id = $1 AND lease_owner = $2 AND updated_at = $12::timestamptz
                      AND (completed_at IS NULL OR NOT $9::boolean)
                RETURNING id, event_seq),
            consumed AS (
                DELETE FROM run_inbox WHERE id = ANY($10::bigint[]) AND EXISTS (SELECT 1 FROM updated)),
            logged AS (
                INSERT INTO run_log (run_id, seq, entries)
                SELECT $1, updated.event_seq - $5 + 1, e.entries
                FROM updated, """ + TURN_ROWS.formatted("$11") + """
            )
            SELECT id FROM updated""";

    /** Many runs: the same checks and changes per row of the unnested arrays. */
    private static final String MANY = """
            WITH input AS (
                SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::int[],
                                     $7::timestamptz[], $8::timestamptz[], $9::timestamptz[], $10::boolean[], $13::text[])
                    AS t(id, lease_owner, based_on, state, status, logged, wake, now, lease_until, active, listener)),
            updated AS (
                UPDATE runs r SET state = i.state::jsonb, status = i.status, event_seq = r.event_seq + i.logged,
                       next_wake_at = CASE WHEN i.active AND EXISTS (SELECT 1 FROM run_inbox x WHERE x.run_id = r.id
                                                 AND NOT (x.id = ANY($11::bigint[]))) THEN i.now ELSE i.wake END,
                       lease_owner = CASE WHEN i.lease_until IS NULL THEN NULL ELSE r.lease_owner END,
                       lease_until = i.lease_until, updated_at = i.now,
                       completed_at = CASE WHEN i.active THEN r.completed_at ELSE COALESCE(r.completed_at, i.now) END,
                       listener = i.listener
                FROM input i
                WHERE r.id = i.id AND r.lease_owner = i.lease_owner AND r.updated_at = i.based_on
                      AND (r.completed_at IS NULL OR NOT i.active)
                RETURNING r.id, r.event_seq, i.logged),
            consumed AS (
                DELETE FROM run_inbox WHERE id = ANY($11::bigint[]) AND run_id IN (SELECT id FROM updated)),
            logged AS (
                INSERT INTO run_log (run_id, seq, entries)
                SELECT u.id, u.event_seq - u.logged + 1, e.entries
                FROM updated u JOIN\s"""  + TURN_ROWS.formatted("$12") + """
                ON e.run_id = u.id
            )
            SELECT id FROM updated""";

    private final Pool pool;

    RunCommits(Pool pool) {
        this.pool = pool;
    }

    /** True once the turn is committed; false when the run's lease was lost or the run moved on. */
    Uni<Boolean> one(RunCommit c) {
        return pool.preparedQuery(ONE).execute(Tuple.from(new Object[]{c.runId(), c.leaseOwner(), c.state(), c.status(),
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
        return pool.preparedQuery(MANY).execute(Tuple.from(new Object[]{ids, owners, basedOn, states, statuses, logged,
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
