package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.app.Order;
import dev.continuum.engine.app.RunEventRecord;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.DueBacklog;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.app.Slice;
import dev.continuum.engine.app.TimeRange;
import dev.continuum.engine.app.Viewer;
import dev.continuum.flow.run.LogEntry;
import dev.continuum.flow.run.RunState;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
import java.io.StringWriter;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Runs in PostgreSQL through the reactive pool. The run hot path is lease- and batch-shaped
 * (SKIP LOCKED, RETURNING, one multi-row insert per step), which is why it is plain SQL
 * rather than entities (docs/decisions/0001-persistence.md).
 */
@ApplicationScoped
public class PgRunStore implements RunStore {

    private static final String RUN_COLUMNS = RunStatements.runColumns("");

    private final Pool pool;
    private final ObjectMapper json;
    private final StatementBatcher<RunCommit, Boolean> commits;
    private final StatementBatcher<RunClaims.Claim, Optional<RunRecord>> claims;
    private final StatementBatcher<InboxPushes.Push, Boolean> pushes;
    private final StatementBatcher<RunInserts.NewRun, Boolean> inserts;

    public PgRunStore(Pool pool, ObjectMapper json, Vertx vertx) {
        this.pool = pool;
        this.json = json;
        RunCommits written = new RunCommits(pool);
        this.commits = new StatementBatcher<>("run commits", vertx, StatementBatcher.MAX_WAIT, written::many, written::one);
        RunClaims leases = new RunClaims(pool, this::toRun);
        this.claims = new StatementBatcher<>("run claims", vertx, StatementBatcher.MAX_WAIT, leases::many, leases::one);
        InboxPushes inboxes = new InboxPushes(pool);
        this.pushes = new StatementBatcher<>("inbox pushes", vertx, StatementBatcher.MAX_WAIT, inboxes::many, inboxes::one);
        RunInserts created = new RunInserts(pool);
        this.inserts = new StatementBatcher<>("run starts", vertx, StatementBatcher.MAX_WAIT, created::many, created::one);
    }

    @Override
    public Uni<Void> insert(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner, Instant leaseUntil) {
        return insert(run, log, nextWakeAt, leaseOwner, leaseUntil, false).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> insertIfCurrent(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner,
                                        Instant leaseUntil) {
        return insert(run, log, nextWakeAt, leaseOwner, leaseUntil, true);
    }

    private Uni<Boolean> insert(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner, Instant leaseUntil,
                                boolean ifCurrent) {
        // Per run, the run and its first log entries land together or not at all; other starts may share the statement.
        String rows = eventRows(log, run.id());
        return inserts.submit(new RunInserts.NewRun(run.id(), run.flowId(), run.flowVersion(), run.ownerId(),
                        run.state().status().name(), run.label(), write(json.valueToTree(run.tags())), run.state().toJsonText(),
                        odt(nextWakeAt), leaseOwner, odt(leaseUntil), log.size(), odt(run.createdAt()), odt(run.completedAt()),
                        write(json.valueToTree(run.runManagers())), write(json.valueToTree(run.runMonitors())),
                        rows.substring(1, rows.length() - 1), ifCurrent));
    }

    @Override
    public Uni<Boolean> commit(UUID runId, String leaseOwner, Instant basedOn, RunState state, List<LogEntry> log,
                               Instant nextWakeAt, Instant leaseUntil, Instant now, List<Long> consumedInbox, String listener) {
        // The state, the consumed inbox items and the new log entries change in one transaction, and only
        // while this instance still holds the lease; other runs' turns may share the transaction (RunCommits).
        boolean finished = state.status().finished();
        String rows = eventRows(log, runId);
        return commits.submit(new RunCommit(runId, leaseOwner, odt(basedOn), state.toJsonText(), state.status().name(),
                log.size(), odt(nextWakeAt), odt(now), odt(leaseUntil), !finished, consumedInbox,
                rows.substring(1, rows.length() - 1), listener));
    }

    @Override
    public Uni<Integer> heartbeat(String incarnation, Instant now, Instant aliveUntil) {
        // One statement: the beat, then the sweep of listeners whose beat ran out (this process's own row may be new,
        // which the sweep's snapshot cannot see: hence the listener <> $1).
        return pool.preparedQuery("""
                        WITH beat AS (
                            INSERT INTO engine_incarnations (id, alive_until) VALUES ($1, $3)
                            ON CONFLICT (id) DO UPDATE SET alive_until = EXCLUDED.alive_until),
                        gone AS (
                            DELETE FROM engine_incarnations WHERE alive_until < $2 AND id <> $1),
                        woken AS (
                            UPDATE runs SET listener = NULL, next_wake_at = $2
                            WHERE listener IS NOT NULL AND listener <> $1 AND completed_at IS NULL
                              AND NOT EXISTS (SELECT 1 FROM engine_incarnations e
                                              WHERE e.id = runs.listener AND e.alive_until >= $2)
                            RETURNING 1)
                        SELECT count(*) FROM woken""")
                .execute(Tuple.of(incarnation, odt(now), odt(aliveUntil)))
                .map(rows -> (int) rows.iterator().next().getLong(0).longValue());
    }

    @Override
    public Uni<Boolean> reopen(UUID runId, Instant basedOn, RunState state, List<LogEntry> log, Instant nextWakeAt, Instant now) {
        return pool.preparedQuery("""
                        WITH run AS (
                            UPDATE runs SET state = $2::text::jsonb, status = $3, event_seq = event_seq + $4, next_wake_at = $8,
                                            lease_owner = NULL, lease_until = NULL, updated_at = $5,
                                            completed_at = CASE WHEN $9::boolean THEN $5 ELSE NULL END
                            WHERE id = $1 AND status = 'FAILED' AND updated_at = $6
                            RETURNING id, event_seq),
                        logged AS (
                            INSERT INTO run_log (run_id, seq, entries)
                            SELECT run.id, run.event_seq - $4 + 1, e.entries
                            FROM run, """ + RunStatements.TURN_ROWS.formatted("$7") + """
                        )
                        SELECT id FROM run""")
                .execute(Tuple.from(new Object[]{runId, state.toJsonText(), state.status().name(), log.size(), odt(now),
                        odt(basedOn), eventRows(log, runId), odt(nextWakeAt), state.status().finished()}))
                .map(rows -> rows.rowCount() > 0);
    }

    /**
     * The turn's log as the JSON array RunCommits and RunInserts expand (RunStatements.TURN_ROWS): one element, the run
     * and its entries in order, which becomes one run_log row; an empty array when the turn logged nothing.
     */
    private String eventRows(List<LogEntry> log, UUID runId) {
        if (log.isEmpty()) {
            return "[]";
        }
        // Written straight to text (no tree first): one of these per commit.
        StringWriter text = new StringWriter(256 * log.size());
        try (JsonGenerator g = json.createGenerator(text)) {
            g.writeStartArray();
            g.writeStartObject();
            g.writeStringField("run_id", runId.toString()); // which run the row belongs to in a group commit
            g.writeArrayFieldStart("entries");
            for (LogEntry entry : log) {
                g.writeStartObject();
                g.writeStringField("code", entry.code());
                g.writeStringField("state_name", entry.stateName());
                g.writeStringField("description", entry.description());
                g.writeFieldName("details");
                if (entry.details() == null) {
                    g.writeNull();
                } else {
                    json.writeTree(g, entry.details());
                }
                g.writeStringField("at", entry.time().toString());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialise the run log", e);
        }
        return text.toString();
    }

    @Override
    public Uni<List<UUID>> claimDue(String owner, Instant now, Instant leaseUntil, int limit) {
        return pool.preparedQuery("""
                        UPDATE runs SET lease_owner = $1, lease_until = $3
                        WHERE id IN (SELECT id FROM runs
                                     WHERE next_wake_at <= $2 AND (lease_until IS NULL OR lease_until < $2)
                                     ORDER BY next_wake_at LIMIT $4 FOR UPDATE SKIP LOCKED)
                        RETURNING id""")
                .execute(Tuple.of(owner, odt(now), odt(leaseUntil), limit))
                .map(rows -> {
                    List<UUID> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getUUID(0)));
                    return ids;
                });
    }

    @Override
    public Uni<Optional<Instant>> nextDue() {
        return pool.query("SELECT min(GREATEST(next_wake_at, lease_until)) FROM runs WHERE next_wake_at IS NOT NULL")
                .execute()
                .map(rows -> Optional.ofNullable(rows.iterator().next().getOffsetDateTime(0)).map(OffsetDateTime::toInstant));
    }

    @Override
    public Uni<Boolean> holdLease(UUID runId, String owner, Instant basedOn, Instant now, Instant leaseUntil) {
        return pool.preparedQuery("""
                        UPDATE runs SET lease_owner = $2, lease_until = $5
                        WHERE id = $1 AND updated_at = $3 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < $4)""")
                .execute(Tuple.of(runId, owner, odt(basedOn), odt(now)).addValue(odt(leaseUntil)))
                .map(rows -> rows.rowCount() == 1);
    }

    @Override
    public Uni<Optional<RunRecord>> claim(UUID runId, String owner, Instant now, Instant leaseUntil) {
        return claims.submit(new RunClaims.Claim(runId, owner, odt(now), odt(leaseUntil)));
    }

    @Override
    public Uni<Optional<RunRecord>> find(UUID runId) {
        return pool.preparedQuery("SELECT " + RUN_COLUMNS + " FROM runs WHERE id = $1")
                .execute(Tuple.of(runId))
                .map(this::firstRun);
    }

    @Override
    public Uni<Slice<RunRecord>> list(RunQuery query, Viewer viewer) {
        Keyset.Params params = new Keyset.Params();
        List<String> where = new ArrayList<>();
        RunQuery.Filter filter = query.filter();
        if (!filter.flowIds().isEmpty()) {
            where.add("r.flow_id = ANY(" + params.add(filter.flowIds().toArray(new UUID[0])) + "::uuid[])");
        }
        if (!filter.statuses().isEmpty()) {
            where.add("r.status = ANY(" + params.add(filter.statuses().toArray(new String[0])) + "::text[])");
        }
        if (!filter.labels().isEmpty()) {
            where.add("r.label ILIKE ANY(" + params.add(Keyset.containsPatterns(filter.labels())) + "::text[])");
        }
        filter.exactLabel().ifPresent(label -> where.add("r.label = " + params.add(label)));
        if (!filter.tags().isEmpty()) {
            where.add("r.tags ?| " + params.add(filter.tags().toArray(new String[0])) + "::text[]");
        }
        if (!filter.flowTitles().isEmpty()) {
            where.add("f.title ILIKE ANY(" + params.add(Keyset.containsPatterns(filter.flowTitles())) + "::text[])");
        }
        if (!filter.owners().isEmpty()) {
            where.add("r.owner_id = ANY(" + params.add(filter.owners().toArray(new String[0])) + "::text[])");
        }
        within("r.created_at", filter.started(), params, where);
        within("r.completed_at", filter.completed(), params, where);
        if (viewer.restricted() || !filter.roles().isEmpty()) {
            Map<RunQuery.Role, String> holds = roles(viewer.id(), params);
            if (viewer.restricted()) {
                where.add("(" + String.join(" OR ", holds.values()) + ")");
            }
            if (!filter.roles().isEmpty()) {
                where.add("(" + filter.roles().stream().map(holds::get).collect(java.util.stream.Collectors.joining(" OR ")) + ")");
            }
        }
        List<Keyset.Key> keys = keys(query.order());
        if (!query.after().isEmpty()) {
            where.add(Keyset.after(keys, query.after(), params));
        }
        String sql = "SELECT " + RunStatements.runColumns("r.") + ", " + Keyset.selectKeys(keys)
                + " FROM runs r JOIN flows f ON f.id = r.flow_id"
                + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
                + " ORDER BY " + Keyset.orderBy(keys)
                + " LIMIT " + params.add(query.limit() + 1) + " OFFSET " + params.add(query.offset());
        return pool.preparedQuery(sql).execute(Tuple.from(params.values))
                .map(rows -> Keyset.slice(rows, query.limit(), RUN_FIELDS, keys.size(), this::toRun));
    }

    private static final int RUN_FIELDS = 12;

    /** Globus' run roles as SQL over the run ({@code r}) and its flow ({@code f}); mirrors Access. */
    private static Map<RunQuery.Role, String> roles(String user, Keyset.Params params) {
        String u = params.add(user);
        String p = params.add(Keyset.principals(user)) + "::text[]";
        Map<RunQuery.Role, String> holds = new java.util.EnumMap<>(RunQuery.Role.class);
        holds.put(RunQuery.Role.RUN_OWNER, "r.owner_id = " + u);
        holds.put(RunQuery.Role.RUN_MANAGERS, "r.run_managers ?| " + p);
        holds.put(RunQuery.Role.RUN_MONITORS, "r.run_monitors ?| " + p);
        holds.put(RunQuery.Role.FLOW_RUN_MANAGERS, "(f.owner_id = " + u + " OR f.roles->'flow_owners' ?| " + p
                + " OR f.roles->'flow_administrators' ?| " + p + " OR f.roles->'run_managers' ?| " + p + ")");
        holds.put(RunQuery.Role.FLOW_RUN_MONITORS, "f.roles->'run_monitors' ?| " + p);
        return holds;
    }

    private static List<Keyset.Key> keys(List<Order<RunQuery.Field>> order) {
        List<Keyset.Key> keys = new ArrayList<>();
        for (Order<RunQuery.Field> o : order) {
            keys.add(switch (o.field()) {
                case ID -> new Keyset.Key("r.id", "uuid", o.descending());
                case START_TIME -> new Keyset.Key("r.created_at", "timestamptz", o.descending());
                case COMPLETION_TIME -> new Keyset.Key("COALESCE(r.completed_at, 'infinity'::timestamptz)", "timestamptz", o.descending());
                case STATUS -> new Keyset.Key("r.status", "text", o.descending());
                case LABEL -> new Keyset.Key("COALESCE(r.label, '')", "text", o.descending());
            });
        }
        if (order.stream().noneMatch(o -> o.field() == RunQuery.Field.ID)) {
            keys.add(new Keyset.Key("r.id", "uuid", false));
        }
        return keys;
    }

    static void within(String column, TimeRange range, Keyset.Params params, List<String> where) {
        range.from().ifPresent(from -> where.add(column + " >= " + params.add(odt(from))));
        range.to().ifPresent(to -> where.add(column + " < " + params.add(odt(to))));
    }

    @Override
    public Uni<Boolean> update(UUID runId, String label, List<String> tags, List<String> runManagers, List<String> runMonitors) {
        // updated_at stays: it is the driver's optimistic check on the run's state, which this does not touch.
        return pool.preparedQuery("UPDATE runs SET label = $2, tags = $3::text::jsonb, run_managers = $4::text::jsonb, "
                        + "run_monitors = $5::text::jsonb WHERE id = $1")
                .execute(Tuple.of(runId, label, write(json.valueToTree(tags)), write(json.valueToTree(runManagers)),
                        write(json.valueToTree(runMonitors))))
                .map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<List<RunEventRecord>> events(UUID runId, int afterSeq, int limit) {
        return events("t.seq + jsonb_array_length(t.entries) - 1 > $2", "seq > $2 ORDER BY seq", runId, afterSeq, limit);
    }

    @Override
    public Uni<List<RunEventRecord>> eventsBefore(UUID runId, int beforeSeq, int limit) {
        return events("t.seq < $2", "seq < $2 ORDER BY seq DESC", runId, beforeSeq, limit);
    }

    /**
     * Log entries one by one from the turns' rows (run_log, one row per committed turn): {@code turns} picks the rows
     * that can hold a wanted entry (by the primary key), {@code range} the entries, numbered seq + position - 1.
     */
    private Uni<List<RunEventRecord>> events(String turns, String range, UUID runId, int seq, int limit) {
        return pool.preparedQuery("""
                        SELECT seq, code, state_name, description, details, at FROM (
                            SELECT t.seq + e.i::int - 1 AS seq, e.v->>'code' AS code, e.v->>'state_name' AS state_name,
                                   e.v->>'description' AS description, NULLIF(e.v->'details', 'null'::jsonb)::text AS details,
                                   (e.v->>'at')::timestamptz AS at
                            FROM run_log t, jsonb_array_elements(t.entries) WITH ORDINALITY AS e(v, i)
                            WHERE t.run_id = $1 AND\s""" + turns + ") entry WHERE " + range + " LIMIT $3")
                .execute(Tuple.of(runId, seq, limit))
                .map(rows -> {
                    List<RunEventRecord> events = new ArrayList<>();
                    rows.forEach(row -> events.add(new RunEventRecord(row.getInteger(0), row.getString(1),
                            row.getString(2), row.getString(3), read(row.getString(4)),
                            row.getOffsetDateTime(5).toInstant())));
                    return events;
                });
    }

    @Override
    public Uni<List<InboxItem>> inbox(UUID runId) {
        return pool.preparedQuery(RunStatements.INBOX)
                .execute(Tuple.of(runId))
                .map(rows -> {
                    List<InboxItem> items = new ArrayList<>();
                    rows.forEach(row -> items.add(new InboxItem(row.getLong(0), row.getString(1), read(row.getString(2)))));
                    return items;
                });
    }

    @Override
    public Uni<Boolean> push(UUID runId, String token, JsonNode status, Instant now) {
        // Per run, the item is queued and the run marked due together, or neither for a finished run.
        return pushes.submit(new InboxPushes.Push(runId, token, write(status), odt(now)));
    }

    @Override
    public Uni<Boolean> wake(UUID runId, Instant at) {
        return pool.preparedQuery("UPDATE runs SET next_wake_at = $2 WHERE id = $1")
                .execute(Tuple.of(runId, odt(at)))
                .map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Boolean> delete(UUID runId) {
        return pool.preparedQuery("DELETE FROM runs WHERE id = $1 AND completed_at IS NOT NULL")
                .execute(Tuple.of(runId))
                .map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Integer> purgeFinished(Instant cutoff, Optional<String> owner, int limit) {
        // SKIP LOCKED: instances purging at the same time take different runs instead of waiting on each other
        return pool.preparedQuery("""
                        WITH gone AS (
                            DELETE FROM runs WHERE id IN (
                                SELECT id FROM runs WHERE completed_at < $1 AND ($2::text IS NULL OR owner_id = $2)
                                ORDER BY completed_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                            RETURNING id),
                        grants AS (DELETE FROM run_grants WHERE run_id IN (SELECT id FROM gone)),
                        links AS (DELETE FROM run_links WHERE child_run_id IN (SELECT id FROM gone))
                        SELECT count(*) FROM gone""")
                .execute(Tuple.of(odt(cutoff), owner.orElse(null), limit))
                .map(rows -> (int) rows.iterator().next().getLong(0).longValue());
    }

    @Override
    public Uni<Map<String, Long>> countByStatus() {
        return pool.query("SELECT status, count(*) FROM runs GROUP BY status").execute().map(rows -> {
            Map<String, Long> counts = new LinkedHashMap<>();
            rows.forEach(row -> counts.put(row.getString(0), row.getLong(1)));
            return counts;
        });
    }

    @Override
    public Uni<DueBacklog> dueBacklog(Instant now) {
        // the claim's own condition (claimDue), so the number is what the next scans will pick up
        return pool.preparedQuery("""
                        SELECT count(*), min(next_wake_at) FROM runs
                        WHERE next_wake_at <= $1 AND (lease_until IS NULL OR lease_until < $1)""")
                .execute(Tuple.of(odt(now))).map(rows -> {
                    Row row = rows.iterator().next();
                    java.time.OffsetDateTime oldest = row.getOffsetDateTime(1);
                    return new DueBacklog(row.getLong(0), oldest == null ? java.time.Duration.ZERO
                            : java.time.Duration.between(oldest.toInstant(), now));
                });
    }

    private Optional<RunRecord> firstRun(RowSet<Row> rows) {
        return rows.iterator().hasNext() ? Optional.of(toRun(rows.iterator().next())) : Optional.empty();
    }

    RunRecord toRun(Row row) {
        List<String> tags = new ArrayList<>();
        read(row.getString(5)).forEach(t -> tags.add(t.asText()));
        return new RunRecord(row.getUUID(0), row.getUUID(1), row.getInteger(2), row.getString(3), row.getString(4),
                tags, RunState.fromJsonText(row.getString(6)), row.getOffsetDateTime(7).toInstant(),
                row.getOffsetDateTime(8).toInstant(), instant(row.getOffsetDateTime(9)),
                texts(read(row.getString(10))), texts(read(row.getString(11))));
    }

    private static List<String> texts(JsonNode array) {
        List<String> items = new ArrayList<>();
        array.forEach(item -> items.add(item.asText()));
        return items;
    }

    static OffsetDateTime odt(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static Instant instant(OffsetDateTime odt) {
        return odt == null ? null : odt.toInstant();
    }

    private String write(JsonNode node) {
        try {
            return json.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise JSON", e);
        }
    }

    private JsonNode read(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is unreadable", e);
        }
    }
}
