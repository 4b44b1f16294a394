package dev.continuum.engine.adapters.persistence;

import dev.continuum.engine.app.triggers.TimerStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

/** Timer positions in trigger_timers (V5__trigger_timers.sql). */
@ApplicationScoped
public class PgTimerStore implements TimerStore {

    private final Pool pool;
    private final PgTriggerStore triggers;

    public PgTimerStore(Pool pool, PgTriggerStore triggers) {
        this.pool = pool;
        this.triggers = triggers;
    }

    @Override
    public Uni<Void> schedule(UUID triggerId, Instant next) {
        return pool.preparedQuery("""
                        INSERT INTO trigger_timers (trigger_id, next_fire_at) VALUES ($1, $2)
                        ON CONFLICT (trigger_id) DO UPDATE SET next_fire_at = EXCLUDED.next_fire_at, pending_fire_at = NULL""")
                .execute(Tuple.of(triggerId, next == null ? null : PgRunStore.odt(next))).replaceWithVoid();
    }

    @Override
    public Uni<List<TimerState>> due(Instant now) {
        return pool.preparedQuery("SELECT " + prefixed() + ", tt.next_fire_at, tt.fires, tt.pending_fire_at "
                        + "FROM trigger_timers tt JOIN triggers t ON t.id = tt.trigger_id WHERE NOT t.paused "
                        + "AND (tt.next_fire_at <= $1 OR tt.pending_fire_at IS NOT NULL) ORDER BY tt.next_fire_at LIMIT 100")
                .execute(Tuple.of(PgRunStore.odt(now)))
                .map(rows -> {
                    List<TimerState> due = new ArrayList<>();
                    for (Row row : rows) {
                        due.add(new TimerState(triggers.toTrigger(row), instant(row.getOffsetDateTime(7)), row.getInteger(8),
                                instant(row.getOffsetDateTime(9))));
                    }
                    return due;
                });
    }

    @Override
    public Uni<Boolean> advance(UUID triggerId, Instant seenNext, Instant next, int fires, Instant pending) {
        return pool.preparedQuery("UPDATE trigger_timers SET next_fire_at = $3, fires = $4, pending_fire_at = $5 "
                        + "WHERE trigger_id = $1 AND next_fire_at IS NOT DISTINCT FROM $2")
                .execute(Tuple.of(triggerId, odt(seenNext), odt(next), fires, odt(pending)))
                .map(rows -> rows.rowCount() == 1);
    }

    @Override
    public Uni<List<UUID>> recentRuns(UUID triggerId, int limit, Instant since) {
        return pool.preparedQuery("SELECT run_id FROM trigger_events WHERE trigger_id = $1 AND outcome = 'started' "
                        + "AND received_at >= $2 ORDER BY id DESC LIMIT $3")
                .execute(Tuple.of(triggerId, PgRunStore.odt(since), limit))
                .map(rows -> {
                    List<UUID> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getUUID(0)));
                    return ids;
                });
    }

    private static String prefixed() {
        return String.join(", ", Arrays.stream(PgTriggerStore.COLUMNS.split(", ")).map(c -> "t." + c).toList());
    }

    private static OffsetDateTime odt(Instant instant) {
        return instant == null ? null : PgRunStore.odt(instant);
    }

    private static Instant instant(OffsetDateTime odt) {
        return odt == null ? null : odt.toInstant();
    }
}
