package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.FlowStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.reactive.mutiny.Mutiny;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The flow catalogue: entity-shaped, so kept with Hibernate Reactive. Every start of a run reads
 * its flow, so {@link #find} keeps the newest version of each flow in memory and asks the database
 * only which version is current (one indexed row; every change of a flow makes a new version, so
 * this is exact, also with several engine instances).
 */
@ApplicationScoped
public class HibernateFlowStore implements FlowStore {

    private static final int CACHED_FLOWS = 10_000;

    private final Mutiny.SessionFactory sessions;
    private final Pool pool;
    private final ObjectMapper json;
    private final Map<UUID, FlowRecord> newest = new ConcurrentHashMap<>();

    public HibernateFlowStore(Mutiny.SessionFactory sessions, Pool pool, ObjectMapper json) {
        this.sessions = sessions;
        this.pool = pool;
        this.json = json;
    }

    @Override
    public Uni<Void> create(FlowRecord flow) {
        FlowEntity entity = new FlowEntity();
        entity.id = flow.id();
        entity.createdAt = flow.createdAt();
        entity.ownerId = flow.ownerId();
        copyMetadata(flow, entity);
        return sessions.withTransaction(session -> session.persist(entity)
                .call(session::flush)
                .call(() -> session.persist(version(flow))));
    }

    @Override
    public Uni<Optional<FlowRecord>> find(UUID id) {
        return pool.preparedQuery("SELECT current_version FROM flows WHERE id = $1 AND NOT deleted").execute(Tuple.of(id))
                .flatMap(rows -> {
                    if (rows.size() == 0) {
                        newest.remove(id);
                        return Uni.createFrom().item(Optional.<FlowRecord>empty());
                    }
                    int current = rows.iterator().next().getInteger(0);
                    FlowRecord cached = newest.get(id);
                    if (cached != null && cached.version() == current) {
                        return Uni.createFrom().item(Optional.of(cached));
                    }
                    return load(id).invoke(found -> found.ifPresent(this::remember));
                });
    }

    private void remember(FlowRecord flow) {
        if (newest.size() >= CACHED_FLOWS) {
            newest.clear(); // bounded; the next reads refill it
        }
        newest.merge(flow.id(), flow, (old, fresh) -> fresh.version() >= old.version() ? fresh : old);
    }

    private Uni<Optional<FlowRecord>> load(UUID id) {
        return sessions.withSession(session -> session.find(FlowEntity.class, id)
                .flatMap(flow -> flow == null || flow.deleted ? Uni.createFrom().item(Optional.<FlowRecord>empty())
                        : session.find(FlowVersionEntity.class, new FlowVersionEntity.Key(id, flow.currentVersion))
                                .map(version -> Optional.of(toRecord(flow, version)))));
    }

    @Override
    public Uni<Optional<FlowRecord>> findVersion(UUID id, int version) {
        return sessions.withSession(session -> session.find(FlowEntity.class, id)
                .flatMap(flow -> flow == null ? Uni.createFrom().item(Optional.<FlowRecord>empty())
                        : session.find(FlowVersionEntity.class, new FlowVersionEntity.Key(id, version))
                                .map(v -> v == null ? Optional.<FlowRecord>empty() : Optional.of(toRecord(flow, v)))));
    }

    @Override
    public Uni<List<FlowRecord>> list(int limit, int offset) {
        return sessions.withSession(session -> session
                .createSelectionQuery("select f, v from FlowEntity f, FlowVersionEntity v "
                        + "where v.flowId = f.id and v.version = f.currentVersion and f.deleted = false "
                        + "order by f.createdAt desc, f.id", Object[].class)
                .setFirstResult(offset).setMaxResults(limit)
                .getResultList()
                .map(rows -> rows.stream().map(r -> toRecord((FlowEntity) r[0], (FlowVersionEntity) r[1])).toList()));
    }

    @Override
    public Uni<Void> addVersion(FlowRecord flow) {
        return sessions.withTransaction(session -> session.find(FlowEntity.class, flow.id())
                .flatMap(entity -> {
                    copyMetadata(flow, entity);
                    entity.currentVersion = flow.version();
                    return session.persist(version(flow));
                }));
    }

    @Override
    public Uni<Boolean> delete(UUID id) {
        return sessions.withTransaction(session -> session.find(FlowEntity.class, id).map(entity -> {
            if (entity == null || entity.deleted) {
                return false;
            }
            entity.deleted = true;
            return true;
        }));
    }

    private void copyMetadata(FlowRecord flow, FlowEntity entity) {
        entity.currentVersion = flow.version();
        entity.title = flow.title();
        entity.subtitle = flow.subtitle();
        entity.description = flow.description();
        entity.keywords = write(json.valueToTree(flow.keywords()));
        entity.roles = write(flow.roles());
        entity.updatedAt = flow.updatedAt();
    }

    private FlowVersionEntity version(FlowRecord flow) {
        FlowVersionEntity version = new FlowVersionEntity();
        version.flowId = flow.id();
        version.version = flow.version();
        version.definition = write(flow.definition());
        version.inputSchema = flow.inputSchema() == null ? null : write(flow.inputSchema());
        version.createdAt = flow.updatedAt();
        return version;
    }

    private FlowRecord toRecord(FlowEntity flow, FlowVersionEntity version) {
        return new FlowRecord(flow.id, flow.ownerId, version.version, flow.title, flow.subtitle, flow.description,
                readList(read(flow.keywords)), read(flow.roles), read(version.definition), read(version.inputSchema),
                flow.createdAt, flow.updatedAt);
    }

    private static List<String> readList(JsonNode array) {
        List<String> items = new java.util.ArrayList<>();
        if (array != null) {
            array.forEach(item -> items.add(item.asText()));
        }
        return items;
    }

    private String write(JsonNode node) {
        try {
            return json.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise JSON", e);
        }
    }

    private JsonNode read(String text) {
        try {
            return text == null ? null : json.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("stored JSON is unreadable", e);
        }
    }
}
