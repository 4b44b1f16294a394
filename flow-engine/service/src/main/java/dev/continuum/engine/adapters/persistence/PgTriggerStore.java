package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.app.Slice;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.app.triggers.TriggerStore;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerDraft;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/** Triggers and their events in PostgreSQL (V4__triggers.sql), through the reactive pool. */
@ApplicationScoped
public class PgTriggerStore implements TriggerStore {

    static final String COLUMNS = "id, owner_id, spec::text, paused, consecutive_failures, created_at, updated_at";

    /**
     * How long an answer of {@link #activeRecently} is reused. Every finished run asks for the run triggers (chaining):
     * one read per second instead of one per run. This instance's own trigger writes drop the cache at once; a trigger
     * another instance made or paused is seen here at most this late, and RunChains' catch-up fires for the runs that
     * finished meanwhile. Instrument messages read afresh ({@link #active}): nothing would catch up on one dropped
     * because a trigger made on another instance was not seen yet.
     */
    static final Duration ACTIVE_REUSE = Duration.ofSeconds(1);

    private record ActiveAnswer(Uni<List<Trigger>> triggers, long readAtNanos) {}

    private final Pool pool;
    private final ObjectMapper json;
    private final ConcurrentHashMap<String, ActiveAnswer> activeAnswers =
            new ConcurrentHashMap<>();

    public PgTriggerStore(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    @Override
    public Uni<Void> insert(Trigger t) {
        return pool.preparedQuery("INSERT INTO triggers (id, owner_id, spec, source_type, paused, consecutive_failures, "
                        + "created_at, updated_at) VALUES ($1, $2, $3::text::jsonb, $4, $5, $6, $7, $8)")
                .execute(Tuple.from(List.of(t.id(), t.ownerId(), write(t.spec()), t.sourceType(), t.paused(),
                        t.consecutiveFailures(), PgRunStore.odt(t.createdAt()), PgRunStore.odt(t.updatedAt()))))
                .invoke(activeAnswers::clear).replaceWithVoid();
    }

    @Override
    public Uni<Optional<Trigger>> find(UUID id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM triggers WHERE id = $1").execute(Tuple.of(id))
                .map(rows -> rows.iterator().hasNext() ? Optional.of(toTrigger(rows.iterator().next())) : Optional.empty());
    }

    @Override
    public Uni<Void> update(Trigger t) {
        return pool.preparedQuery("UPDATE triggers SET spec = $2::text::jsonb, source_type = $3, paused = $4, "
                        + "consecutive_failures = $5, updated_at = $6 WHERE id = $1")
                .execute(Tuple.of(t.id(), write(t.spec()), t.sourceType(), t.paused(), t.consecutiveFailures(),
                        PgRunStore.odt(t.updatedAt())))
                .invoke(activeAnswers::clear).replaceWithVoid();
    }

    @Override
    public Uni<Void> delete(UUID id) {
        return pool.preparedQuery("DELETE FROM triggers WHERE id = $1").execute(Tuple.of(id))
                .invoke(activeAnswers::clear).replaceWithVoid();
    }

    @Override
    public Uni<List<Trigger>> list(Viewer viewer, int limit) {
        if (!viewer.restricted()) {
            return pool.preparedQuery("SELECT " + COLUMNS + " FROM triggers ORDER BY created_at DESC, id LIMIT $1")
                    .execute(Tuple.of(limit)).map(this::toTriggers);
        }
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM triggers WHERE owner_id = $1 "
                        + "OR spec->'administrators' ?| $2 OR spec->'viewers' ?| $2 ORDER BY created_at DESC, id LIMIT $3")
                .execute(Tuple.of(viewer.id(), new String[] {viewer.id(), TriggerDraft.PUBLIC, TriggerDraft.ALL_AUTHENTICATED}, limit))
                .map(this::toTriggers);
    }

    @Override
    public Uni<List<Trigger>> active(String sourceType) {
        return readActive(sourceType);
    }

    @Override
    public Uni<List<Trigger>> activeRecently(String sourceType) {
        long now = System.nanoTime();
        ActiveAnswer known = activeAnswers.get(sourceType);
        if (known != null && now - known.readAtNanos() < ACTIVE_REUSE.toNanos()) {
            return known.triggers();
        }
        // One read shared by every caller until it is too old; a failed read is not kept.
        ActiveAnswer fresh = new ActiveAnswer(readActive(sourceType).memoize().indefinitely(), now);
        activeAnswers.put(sourceType, fresh);
        return fresh.triggers().onFailure().invoke(() -> activeAnswers.remove(sourceType, fresh));
    }

    private Uni<List<Trigger>> readActive(String sourceType) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM triggers WHERE source_type = $1 AND NOT paused")
                .execute(Tuple.of(sourceType)).map(rows -> List.copyOf(toTriggers(rows)));
    }

    @Override
    public Uni<Claim> claim(UUID triggerId, TriggerEvent event, UUID runId, Instant now, Instant claimUntil) {
        // New key: inserted. Known key still 'starting' past its claim (its handler crashed): taken over.
        return pool.preparedQuery("""
                        INSERT INTO trigger_events (trigger_id, dedup_key, outcome, run_id, payload, received_at, claimed_until)
                        VALUES ($1, $2, 'starting', $3, $4::text::jsonb, $5, $6)
                        ON CONFLICT (trigger_id, dedup_key) WHERE outcome <> 'duplicate' DO UPDATE SET claimed_until = EXCLUDED.claimed_until
                            WHERE trigger_events.outcome = 'starting' AND trigger_events.claimed_until < EXCLUDED.received_at
                        RETURNING id""")
                .execute(Tuple.tuple().addValue(triggerId).addValue(event.dedupKey()).addValue(runId)
                        .addValue(write(event.payload())).addValue(PgRunStore.odt(now)).addValue(PgRunStore.odt(claimUntil)))
                .flatMap(rows -> rows.iterator().hasNext()
                        ? Uni.createFrom().item(new Claim.Owned(rows.iterator().next().getLong(0)))
                        : known(triggerId, event, now));
    }

    private Uni<Claim> known(UUID triggerId, TriggerEvent event, Instant now) {
        return pool.preparedQuery("""
                        WITH first AS (SELECT outcome, run_id FROM trigger_events
                                       WHERE trigger_id = $1 AND dedup_key = $2 AND outcome <> 'duplicate'),
                             dup AS (INSERT INTO trigger_events (trigger_id, dedup_key, outcome, run_id, reason, payload, received_at)
                                     SELECT $1, $2, 'duplicate', CASE WHEN outcome = 'started' THEN run_id END,
                                            'first delivery: ' || outcome, $3::text::jsonb, $4
                                     FROM first WHERE outcome <> 'starting')
                        SELECT outcome, run_id FROM first""")
                .execute(Tuple.of(triggerId, event.dedupKey(), write(event.payload()), PgRunStore.odt(now)))
                .map(rows -> {
                    if (!rows.iterator().hasNext()) {
                        return new Claim.Busy(); // released between our two statements: the sender retries
                    }
                    Row first = rows.iterator().next();
                    String outcome = first.getString(0);
                    return outcome.equals("starting") ? new Claim.Busy() : new Claim.Seen(new EventOutcome.Duplicate(
                            outcome.equals("started") ? first.getUUID(1) : null, outcome));
                });
    }

    @Override
    public Uni<Void> finish(UUID triggerId, long eventId, EventOutcome outcome) {
        UUID runId = outcome instanceof EventOutcome.Started started ? started.runId() : null;
        String reason = switch (outcome) {
            case EventOutcome.FilteredOut f -> f.reason();
            case EventOutcome.Rejected r -> r.reason();
            default -> null;
        };
        String failures = outcome instanceof EventOutcome.Started ? "0"
                : outcome instanceof EventOutcome.Rejected ? "consecutive_failures + 1" : "consecutive_failures";
        return pool.preparedQuery("""
                        WITH e AS (UPDATE trigger_events SET outcome = $2, run_id = $3, reason = $4, claimed_until = NULL
                                   WHERE id = $1)
                        UPDATE triggers SET consecutive_failures = %s WHERE id = $5""".formatted(failures))
                .execute(Tuple.of(eventId, outcome.name(), runId, reason, triggerId))
                .replaceWithVoid();
    }

    @Override
    public Uni<Void> release(long eventId) {
        return pool.preparedQuery("DELETE FROM trigger_events WHERE id = $1 AND outcome = 'starting'")
                .execute(Tuple.of(eventId)).replaceWithVoid();
    }

    @Override
    public Uni<Slice<EventRecord>> events(UUID triggerId, List<String> after, int limit) {
        Keyset.Params params = new Keyset.Params();
        String where = "e.trigger_id = " + params.add(triggerId)
                + (after.isEmpty() ? "" : " AND " + Keyset.after(EVENT_ORDER, after, params));
        String sql = "SELECT e.id, e.dedup_key, e.outcome, e.run_id, e.reason, e.payload::text, e.received_at, "
                + Keyset.selectKeys(EVENT_ORDER) + " FROM trigger_events e WHERE " + where
                + " ORDER BY " + Keyset.orderBy(EVENT_ORDER) + " LIMIT " + params.add(limit + 1);
        return pool.preparedQuery(sql).execute(Tuple.from(params.values))
                .map(rows -> Keyset.slice(rows, limit, 7, EVENT_ORDER.size(), row -> new EventRecord(row.getLong(0),
                        row.getString(1), row.getString(2), row.getUUID(3), row.getString(4), read(row.getString(5)),
                        row.getOffsetDateTime(6).toInstant())));
    }

    /** Newest first: the order events were recorded in, reversed. */
    private static final List<Keyset.Key> EVENT_ORDER = List.of(new Keyset.Key("e.id", "bigint", true));

    @Override
    public Uni<List<UnchainedRun>> unchained(UUID triggerId, List<String> statuses, UUID flowId, Instant from, Instant before,
                                             int limit) {
        return pool.preparedQuery("SELECT r.id, r.flow_id, r.status FROM runs r WHERE r.completed_at >= $1 AND r.completed_at < $2 "
                        + "AND r.status = ANY($3) AND ($4::uuid IS NULL OR r.flow_id = $4) AND NOT EXISTS (SELECT 1 FROM "
                        + "trigger_events e WHERE e.trigger_id = $5 AND e.dedup_key = 'run:' || r.id || ':' || r.status) "
                        + "ORDER BY r.completed_at LIMIT $6")
                .execute(Tuple.tuple().addValue(PgRunStore.odt(from)).addValue(PgRunStore.odt(before))
                        .addArrayOfString(statuses.toArray(String[]::new)).addUUID(flowId).addUUID(triggerId).addInteger(limit))
                .map(rows -> {
                    List<UnchainedRun> missed = new ArrayList<>();
                    rows.forEach(row -> missed.add(new UnchainedRun(row.getUUID(0), row.getUUID(1), row.getString(2))));
                    return missed;
                });
    }

    private List<Trigger> toTriggers(RowSet<Row> rows) {
        List<Trigger> triggers = new ArrayList<>();
        rows.forEach(row -> triggers.add(toTrigger(row)));
        return triggers;
    }

    Trigger toTrigger(Row row) {
        try {
            return new Trigger(row.getUUID(0), row.getString(1), json.readValue(row.getString(2), TriggerDraft.class),
                    row.getBoolean(3), row.getInteger(4), row.getOffsetDateTime(5).toInstant(),
                    row.getOffsetDateTime(6).toInstant());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("unreadable trigger " + row.getUUID(0) + ": " + e.getOriginalMessage(), e);
        }
    }

    private String write(Object value) {
        try {
            return value == null ? null : json.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private JsonNode read(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
