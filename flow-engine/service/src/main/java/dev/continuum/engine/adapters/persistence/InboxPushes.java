package dev.continuum.engine.adapters.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/**
 * Completions queued in runs' inboxes, alone or many in one statement: per run, the item is queued
 * and the run made due together, or neither when the run is finished or gone.
 */
final class InboxPushes {

    /** One completion for one run; {@code status} is JSON text. */
    record Push(UUID runId, String token, String status, OffsetDateTime at) {}

    private static final String ONE = """
            WITH due AS (
                UPDATE runs SET next_wake_at = $4 WHERE id = $1 AND completed_at IS NULL RETURNING id)
            INSERT INTO run_inbox (run_id, token, status, received_at)
            SELECT id, $2, $3::text::jsonb, $4 FROM due
            RETURNING run_id""";

    private static final String MANY = """
            WITH input AS (
                SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[]) AS t(run_id, token, status, at)),
            due AS (
                UPDATE runs r SET next_wake_at = i.at FROM input i WHERE r.id = i.run_id AND r.completed_at IS NULL
                RETURNING r.id)
            INSERT INTO run_inbox (run_id, token, status, received_at)
            SELECT i.run_id, i.token, i.status::jsonb, i.at FROM input i WHERE i.run_id IN (SELECT id FROM due)
            RETURNING run_id""";

    private final Pool pool;

    InboxPushes(Pool pool) {
        this.pool = pool;
    }

    Uni<Boolean> one(Push p) {
        return pool.preparedQuery(ONE).execute(Tuple.of(p.runId(), p.token(), p.status(), p.at()))
                .map(rows -> rows.rowCount() > 0);
    }

    /** Per push, in order, whether it was queued. */
    Uni<List<Boolean>> many(List<Push> batch) {
        return pool.preparedQuery(MANY).execute(Tuple.of(
                        batch.stream().map(Push::runId).toArray(UUID[]::new),
                        batch.stream().map(Push::token).toArray(String[]::new),
                        batch.stream().map(Push::status).toArray(String[]::new),
                        batch.stream().map(Push::at).toArray(OffsetDateTime[]::new)))
                .map(rows -> {
                    Set<UUID> queued = new HashSet<>();
                    rows.forEach(row -> queued.add(row.getUUID(0)));
                    return batch.stream().map(p -> queued.contains(p.runId())).toList();
                });
    }
}
