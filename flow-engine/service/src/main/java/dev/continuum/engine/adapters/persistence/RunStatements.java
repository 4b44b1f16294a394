package dev.continuum.engine.adapters.persistence;

import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The SQL a run's writes send: its insert, its turns' commits, a lease claim and the inbox read, each alone or for
 * many runs in one statement. Plain Java on purpose: bench's {@code PgWriteFloor} replays these very texts against
 * PostgreSQL to measure the floor of the engine's writes, and reads them from here so that the two cannot drift.
 */
public final class RunStatements {

    private RunStatements() {}

    /** Each turn's log as one row of a JSON array (its run and its entries), expanded in SQL: one run_log row per turn. */
    static final String TURN_ROWS = "jsonb_to_recordset(%s::text::jsonb) AS e(run_id uuid, entries jsonb)";

    private static final String COLUMNS = "id, flow_id, flow_version, owner_id, status, label, tags, state, next_wake_at, "
            + "lease_owner, lease_until, event_seq, created_at, updated_at, completed_at, run_managers, run_monitors";

    /** The insert's condition when the start asked for it: the flow version is still current and the flow not deleted. */
    private static final String STILL_CURRENT = "(NOT %s OR EXISTS (SELECT 1 FROM flows f WHERE f.id = %s "
            + "AND f.current_version = %s AND NOT f.deleted))";

    /** One new run and its first log entries (RunInserts). */
    public static final String INSERT_ONE = """
            WITH run AS (
                INSERT INTO runs (%s)
                SELECT $1::uuid, $2::uuid, $3::int, $4::text, $5::text, $6::text, $7::text::jsonb, $8::text::jsonb,
                       $9::timestamptz, $10::text, $11::timestamptz, $12::int, $13::timestamptz, $13::timestamptz,
                       $14::timestamptz, $16::text::jsonb, $17::text::jsonb
                WHERE %s
                RETURNING id),
            logged AS (
                INSERT INTO run_log (run_id, seq, entries)
                SELECT run.id, 1, e.entries
                FROM run, %s)
            SELECT id FROM run""".formatted(COLUMNS, STILL_CURRENT.formatted("$18::boolean", "$2::uuid", "$3::int"),
            TURN_ROWS.formatted("$15"));

    /** Many new runs, the columns of {@link #INSERT_ONE} as arrays (RunInserts). */
    public static final String INSERT_MANY = """
            WITH input AS (
                SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[],
                                     $8::text[], $9::timestamptz[], $10::text[], $11::timestamptz[], $12::int[],
                                     $13::timestamptz[], $14::timestamptz[], $15::text[], $16::text[], $18::boolean[])
                    AS t(id, flow_id, flow_version, owner_id, status, label, tags, state, next_wake_at, lease_owner,
                         lease_until, event_seq, created_at, completed_at, run_managers, run_monitors, if_current)),
            run AS (
                INSERT INTO runs (%s)
                SELECT id, flow_id, flow_version, owner_id, status, label, tags::jsonb, state::jsonb, next_wake_at,
                       lease_owner, lease_until, event_seq, created_at, created_at, completed_at, run_managers::jsonb,
                       run_monitors::jsonb
                FROM input
                WHERE %s
                RETURNING id),
            logged AS (
                INSERT INTO run_log (run_id, seq, entries)
                SELECT run.id, 1, e.entries
                FROM run JOIN %s ON e.run_id = run.id)
            SELECT id FROM run""".formatted(COLUMNS, STILL_CURRENT.formatted("input.if_current", "input.flow_id", "input.flow_version"),
            TURN_ROWS.formatted("$17"));

    /** One run's turn: the statement a batch of one uses, and each turn of a failed batch on its own (RunCommits). */
    public static final String COMMIT_ONE = """
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

    /** Many runs' turns: the same checks and changes per row of the unnested arrays (RunCommits). */
    public static final String COMMIT_MANY = """
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

    /** The columns PgRunStore.toRun reads, in its order (one list, so a new run column reaches claims too). */
    static String runColumns(String table) {
        return Stream.of("id", "flow_id", "flow_version", "owner_id", "label", "tags::text", "state::text",
                        "created_at", "updated_at", "completed_at", "run_managers::text", "run_monitors::text")
                .map(column -> table + column).collect(Collectors.joining(", "));
    }

    /** A lease on one run, where nobody holds it, this instance does already, or its holder let it expire (RunClaims). */
    public static final String CLAIM_ONE = "UPDATE runs r SET lease_owner = $2, lease_until = $4 WHERE r.id = $1 "
            + "AND (r.lease_owner IS NULL OR r.lease_owner = $2 OR r.lease_until < $3) RETURNING " + runColumns("r.");

    /** Leases on many runs, each judged on its own (RunClaims). */
    public static final String CLAIM_MANY = """
            UPDATE runs r SET lease_owner = i.owner, lease_until = i.lease_until
            FROM unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::timestamptz[]) AS i(id, owner, now, lease_until)
            WHERE r.id = i.id AND (r.lease_owner IS NULL OR r.lease_owner = i.owner OR r.lease_until < i.now)
            RETURNING\s""" + runColumns("r.");

    /** What was pushed to a run and not yet consumed by a turn, oldest first (PgRunStore.inbox). */
    public static final String INBOX = "SELECT id, token, status::text FROM run_inbox WHERE run_id = $1 ORDER BY id";
}
