package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.FlowStore;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.hibernate.reactive.mutiny.Mutiny;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The flow catalogue: entity-shaped, so kept with Hibernate Reactive. */
@ApplicationScoped
public class HibernateFlowStore implements FlowStore {

    private final Mutiny.SessionFactory sessions;
    private final ObjectMapper json;

    public HibernateFlowStore(Mutiny.SessionFactory sessions, ObjectMapper json) {
        this.sessions = sessions;
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
