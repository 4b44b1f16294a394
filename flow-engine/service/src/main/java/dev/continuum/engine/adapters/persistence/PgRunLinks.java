package dev.continuum.engine.adapters.persistence;

import dev.continuum.engine.app.RunLinks;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Run links in run_links (V11). */
@ApplicationScoped
public class PgRunLinks implements RunLinks {

    private final Pool pool;

    public PgRunLinks(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Void> add(Link link) {
        return pool.preparedQuery("INSERT INTO run_links (child_run_id, parent_run_id, parent_state, parent_token, request_id, depth) "
                        + "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (child_run_id) DO NOTHING")
                .execute(Tuple.from(new Object[]{link.child(), link.parent(), link.parentState(), link.parentToken(),
                        link.requestId(), link.depth()}))
                .replaceWithVoid();
    }

    @Override
    public Uni<Optional<Link>> parentOf(UUID child) {
        return pool.preparedQuery("SELECT child_run_id, parent_run_id, parent_state, parent_token, request_id, depth FROM run_links "
                        + "WHERE child_run_id = $1")
                .execute(Tuple.of(child))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(link(rows.iterator().next())));
    }

    @Override
    public Uni<List<UUID>> children(UUID parent) {
        return pool.preparedQuery("SELECT l.child_run_id FROM run_links l JOIN runs r ON r.id = l.child_run_id "
                        + "WHERE l.parent_run_id = $1 ORDER BY r.created_at, l.child_run_id")
                .execute(Tuple.of(parent))
                .map(rows -> {
                    List<UUID> ids = new ArrayList<>();
                    rows.forEach(row -> ids.add(row.getUUID(0)));
                    return ids;
                });
    }

    private static Link link(Row row) {
        return new Link(row.getUUID(0), row.getUUID(1), row.getString(2), row.getString(3), row.getString(4),
                row.getInteger(5));
    }
}
