package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.engine.app.FlowQuery;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.FlowStore;
import dev.continuum.engine.app.FlowVersion;
import dev.continuum.engine.app.Order;
import dev.continuum.engine.app.Slice;
import dev.continuum.engine.app.Viewer;
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
                .call(() -> session.persist(version(flow, flow.ownerId()))));
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

    @Override
    public Uni<Optional<FlowRecord>> findLastSeen(UUID id) {
        FlowRecord seen = newest.get(id);
        return seen != null ? Uni.createFrom().item(Optional.of(seen)) : find(id);
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
        // One plain query, not a Hibernate session with two entity loads: every GET /runs/{id} reads its run's flow
        // version, and under load (issue 18: 10,000 active runs) the session cost a quarter of the engine's CPU.
        return pool.preparedQuery("SELECT " + RECORD_COLUMNS + " FROM flows f JOIN flow_versions v ON v.flow_id = f.id"
                        + " WHERE v.flow_id = $1 AND v.version = $2")
                .execute(Tuple.of(id, version))
                .map(rows -> rows.iterator().hasNext() ? Optional.of(toRecord(rows.iterator().next())) : Optional.empty());
    }

    /** One query for all of them (a page of runs lists their flows' titles and roles), not two per version. */
    @Override
    public Uni<Map<VersionKey, FlowRecord>> findVersions(java.util.Set<VersionKey> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        UUID[] ids = keys.stream().map(VersionKey::id).toArray(UUID[]::new);
        Integer[] versions = keys.stream().map(VersionKey::version).toArray(Integer[]::new);
        return pool.preparedQuery("SELECT " + RECORD_COLUMNS + " FROM flows f JOIN flow_versions v ON v.flow_id = f.id"
                        + " WHERE (v.flow_id, v.version) IN (SELECT * FROM unnest($1::uuid[], $2::int[]))")
                .execute(Tuple.of(ids, versions))
                .map(rows -> {
                    Map<VersionKey, FlowRecord> found = new java.util.HashMap<>();
                    rows.forEach(row -> {
                        FlowRecord flow = toRecord(row);
                        found.put(new VersionKey(flow.id(), flow.version()), flow);
                    });
                    return found;
                });
    }

    /** A flow version's columns in the order {@link #toRecord(io.vertx.mutiny.sqlclient.Row)} reads them. */
    private static final String RECORD_COLUMNS = "f.id, f.owner_id, v.version, f.title, f.subtitle, f.description, "
            + "f.keywords::text, f.roles::text, v.definition::text, v.input_schema::text, f.created_at, f.updated_at";

    private FlowRecord toRecord(io.vertx.mutiny.sqlclient.Row row) {
        return new FlowRecord(row.getUUID(0), row.getString(1), row.getInteger(2), row.getString(3), row.getString(4),
                row.getString(5), readList(read(row.getString(6))), read(row.getString(7)), read(row.getString(8)),
                read(row.getString(9)), row.getOffsetDateTime(10).toInstant(), row.getOffsetDateTime(11).toInstant());
    }

    /** Plain SQL, not HQL: filters on JSONB role lists and keyset paging (Keyset) are PostgreSQL's. */
    @Override
    public Uni<Slice<FlowRecord>> list(FlowQuery query, Viewer viewer) {
        Keyset.Params params = new Keyset.Params();
        List<String> where = new java.util.ArrayList<>(List.of("NOT f.deleted"));
        FlowQuery.Filter filter = query.filter();
        if (!filter.fulltext().isEmpty()) {
            String any = "ILIKE ANY(" + params.add(Keyset.containsPatterns(filter.fulltext())) + "::text[])";
            where.add("(f.title " + any + " OR f.subtitle " + any + " OR f.description " + any + " OR f.owner_id " + any
                    + " OR f.id::text " + any + " OR f.roles->>'flow_administrators' " + any + ")");
        }
        contains("f.title", filter.titles(), params, where);
        contains("f.subtitle", filter.subtitles(), params, where);
        contains("f.description", filter.descriptions(), params, where);
        if (!filter.keywords().isEmpty()) {
            where.add("EXISTS (SELECT 1 FROM jsonb_array_elements_text(f.keywords) k WHERE k ILIKE ANY("
                    + params.add(Keyset.containsPatterns(filter.keywords())) + "::text[]))");
        }
        if (viewer.restricted() || !filter.roles().isEmpty()) {
            Map<FlowQuery.Role, String> holds = roles(viewer.id(), params);
            if (viewer.restricted()) {
                where.add("(" + holds.get(FlowQuery.Role.FLOW_OWNER) + " OR " + holds.get(FlowQuery.Role.FLOW_ADMINISTRATORS)
                        + " OR " + holds.get(FlowQuery.Role.FLOW_STARTERS) + " OR " + holds.get(FlowQuery.Role.FLOW_VIEWERS) + ")");
            }
            if (!filter.roles().isEmpty()) {
                where.add("(" + filter.roles().stream().map(holds::get).collect(java.util.stream.Collectors.joining(" OR ")) + ")");
            }
        }
        List<Keyset.Key> keys = keys(query.order());
        if (!query.after().isEmpty()) {
            where.add(Keyset.after(keys, query.after(), params));
        }
        String sql = "SELECT " + RECORD_COLUMNS + ", " + Keyset.selectKeys(keys)
                + " FROM flows f JOIN flow_versions v ON v.flow_id = f.id AND v.version = f.current_version"
                + " WHERE " + String.join(" AND ", where) + " ORDER BY " + Keyset.orderBy(keys)
                + " LIMIT " + params.add(query.limit() + 1) + " OFFSET " + params.add(query.offset());
        return pool.preparedQuery(sql).execute(Tuple.from(params.values))
                .map(rows -> Keyset.slice(rows, query.limit(), 12, keys.size(), this::toRecord));
    }

    private static void contains(String column, List<String> values, Keyset.Params params, List<String> where) {
        if (!values.isEmpty()) {
            where.add(column + " ILIKE ANY(" + params.add(Keyset.containsPatterns(values)) + "::text[])");
        }
    }

    /** Globus' flow roles as SQL over the flow ({@code f}); mirrors Access. */
    private static Map<FlowQuery.Role, String> roles(String user, Keyset.Params params) {
        String u = params.add(user);
        String p = params.add(Keyset.principals(user)) + "::text[]";
        Map<FlowQuery.Role, String> holds = new java.util.EnumMap<>(FlowQuery.Role.class);
        holds.put(FlowQuery.Role.FLOW_OWNER, "(f.owner_id = " + u + " OR f.roles->'flow_owners' ?| " + p + ")");
        holds.put(FlowQuery.Role.FLOW_ADMINISTRATORS, "f.roles->'flow_administrators' ?| " + p);
        holds.put(FlowQuery.Role.FLOW_STARTERS, "f.roles->'flow_starters' ?| " + p);
        holds.put(FlowQuery.Role.FLOW_VIEWERS, "f.roles->'flow_viewers' ?| " + p);
        holds.put(FlowQuery.Role.RUN_MANAGERS, "f.roles->'run_managers' ?| " + p);
        holds.put(FlowQuery.Role.RUN_MONITORS, "f.roles->'run_monitors' ?| " + p);
        return holds;
    }

    private static List<Keyset.Key> keys(List<Order<FlowQuery.Field>> order) {
        List<Keyset.Key> keys = new java.util.ArrayList<>();
        for (Order<FlowQuery.Field> o : order) {
            keys.add(switch (o.field()) {
                case ID -> new Keyset.Key("f.id", "uuid", o.descending());
                case TITLE -> new Keyset.Key("f.title", "text", o.descending());
                case CREATED_AT -> new Keyset.Key("f.created_at", "timestamptz", o.descending());
                case UPDATED_AT -> new Keyset.Key("f.updated_at", "timestamptz", o.descending());
                case FLOW_OWNER -> new Keyset.Key("f.owner_id", "text", o.descending());
            });
        }
        if (order.stream().noneMatch(o -> o.field() == FlowQuery.Field.ID)) {
            keys.add(new Keyset.Key("f.id", "uuid", false));
        }
        return keys;
    }

    @Override
    public Uni<Void> addVersion(FlowRecord flow, String author) {
        return sessions.withTransaction(session -> session.find(FlowEntity.class, flow.id())
                .flatMap(entity -> {
                    copyMetadata(flow, entity);
                    entity.currentVersion = flow.version();
                    return session.persist(version(flow, author));
                }))
                // a start right after the update reads the last seen version first: it must be this one, not the
                // one the update read (else a run is checked against the old definition, e.g. its providers' URLs)
                .invoke(() -> remember(flow));
    }

    /** A saved version's own columns (alias {@code v}) in the order {@link #toSaved} reads them. */
    private static String savedColumns(String v) {
        return String.join(", ", v + ".version", v + ".created_at", v + ".created_by", v + ".owner_id", v + ".title",
                v + ".subtitle", v + ".description", v + ".keywords::text", v + ".roles::text", v + ".definition::text",
                v + ".input_schema::text");
    }

    private static final int SAVED_COLUMNS = 11;

    @Override
    public Uni<Optional<FlowVersion>> findSaved(UUID id, int version) {
        return pool.preparedQuery("SELECT f.id, f.created_at, " + savedColumns("v")
                        + " FROM flows f JOIN flow_versions v ON v.flow_id = f.id WHERE v.flow_id = $1 AND v.version = $2")
                .execute(Tuple.of(id, version))
                .map(rows -> rows.iterator().hasNext() ? Optional.of(toSaved(rows.iterator().next(), 2)) : Optional.empty());
    }

    /** Each version beside the one before it (versions count up from 1 without gaps), so one query says what changed. */
    @Override
    public Uni<Slice<FlowVersion.Change>> history(UUID id, VersionQuery query) {
        Keyset.Params params = new Keyset.Params();
        List<Keyset.Key> keys = List.of(new Keyset.Key("v.version", "int", true));
        String where = "v.flow_id = " + params.add(id)
                + (query.after().isEmpty() ? "" : " AND " + Keyset.after(keys, query.after(), params));
        String sql = "SELECT f.id, f.created_at, " + savedColumns("v") + ", " + savedColumns("p") + ", " + Keyset.selectKeys(keys)
                + " FROM flows f JOIN flow_versions v ON v.flow_id = f.id"
                + " LEFT JOIN flow_versions p ON p.flow_id = v.flow_id AND p.version = v.version - 1"
                + " WHERE " + where + " ORDER BY " + Keyset.orderBy(keys) + " LIMIT " + params.add(query.limit() + 1);
        return pool.preparedQuery(sql).execute(Tuple.from(params.values))
                .map(rows -> Keyset.slice(rows, query.limit(), 2 + 2 * SAVED_COLUMNS, keys.size(), row -> {
                    FlowVersion version = toSaved(row, 2);
                    FlowVersion previous = row.getValue(2 + SAVED_COLUMNS) == null ? null : toSaved(row, 2 + SAVED_COLUMNS);
                    return new FlowVersion.Change(version, version.changedSince(previous));
                }));
    }

    /** The flow's id and creation time in columns 0 and 1, a version's {@link #savedColumns} from {@code at}. */
    private FlowVersion toSaved(io.vertx.mutiny.sqlclient.Row row, int at) {
        String title = row.getString(at + 4);
        FlowRecord flow = new FlowRecord(row.getUUID(0), row.getString(at + 3), row.getInteger(at), title,
                row.getString(at + 5), row.getString(at + 6), title == null ? null : readList(read(row.getString(at + 7))),
                read(row.getString(at + 8)), read(row.getString(at + 9)), read(row.getString(at + 10)),
                row.getOffsetDateTime(1).toInstant(), row.getOffsetDateTime(at + 1).toInstant());
        // title is never null in a flow: a version without one was saved before versions kept their metadata
        return new FlowVersion(flow, row.getString(at + 2), title != null);
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
        entity.ownerId = flow.ownerId();
        entity.currentVersion = flow.version();
        entity.title = flow.title();
        entity.subtitle = flow.subtitle();
        entity.description = flow.description();
        entity.keywords = write(json.valueToTree(flow.keywords()));
        entity.roles = write(flow.roles());
        entity.updatedAt = flow.updatedAt();
    }

    private FlowVersionEntity version(FlowRecord flow, String author) {
        FlowVersionEntity version = new FlowVersionEntity();
        version.createdBy = author;
        version.ownerId = flow.ownerId();
        version.title = flow.title();
        version.subtitle = flow.subtitle();
        version.description = flow.description();
        version.keywords = write(json.valueToTree(flow.keywords()));
        version.roles = write(flow.roles());
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
