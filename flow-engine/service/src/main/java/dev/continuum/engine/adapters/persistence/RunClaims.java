package dev.continuum.engine.adapters.persistence;

import dev.continuum.engine.app.RunRecord;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

import java.time.OffsetDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

/**
 * Leases taken on single runs (a nudge: something arrived for the run), alone or many in one
 * statement. A lease is taken only where nobody holds it, this instance holds it already, or its
 * holder let it expire; each run of a batch is judged on its own.
 */
final class RunClaims {

    /** A lease wanted on one run. */
    record Claim(UUID runId, String owner, OffsetDateTime now, OffsetDateTime leaseUntil) {}

    private final Pool pool;
    private final Function<Row, RunRecord> toRun;

    RunClaims(Pool pool, Function<Row, RunRecord> toRun) {
        this.pool = pool;
        this.toRun = toRun;
    }

    Uni<Optional<RunRecord>> one(Claim c) {
        return pool.preparedQuery(RunStatements.CLAIM_ONE).execute(Tuple.of(c.runId(), c.owner(), c.now(), c.leaseUntil()))
                .map(rows -> rows.iterator().hasNext() ? Optional.of(toRun.apply(rows.iterator().next())) : Optional.empty());
    }

    /** Per claim, in order, the run when its lease was taken. */
    Uni<List<Optional<RunRecord>>> many(List<Claim> batch) {
        return pool.preparedQuery(RunStatements.CLAIM_MANY).execute(Tuple.of(
                        batch.stream().map(Claim::runId).toArray(UUID[]::new),
                        batch.stream().map(Claim::owner).toArray(String[]::new),
                        batch.stream().map(Claim::now).toArray(OffsetDateTime[]::new),
                        batch.stream().map(Claim::leaseUntil).toArray(OffsetDateTime[]::new)))
                .map(rows -> {
                    Map<UUID, RunRecord> taken = new HashMap<>();
                    rows.forEach(row -> {
                        RunRecord run = toRun.apply(row);
                        taken.put(run.id(), run);
                    });
                    return batch.stream().map(c -> Optional.ofNullable(taken.get(c.runId()))).toList();
                });
    }
}
