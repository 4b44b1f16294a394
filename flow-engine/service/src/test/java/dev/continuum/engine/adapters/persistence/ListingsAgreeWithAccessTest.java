package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.app.Access;
import dev.continuum.engine.app.FlowQuery;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.FlowStore;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.app.Slice;
import dev.continuum.engine.app.TimeRange;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine decides who sees what twice: in Java ({@link Access}, for one flow or run) and in SQL (the list queries of
 * PgRunStore and HibernateFlowStore, which GET /flows, GET /runs and the web UI's lists page through). Fifty flows — each
 * owner with no roles and with every flow role held by every other principal (a user, all_authenticated_users, public)
 * — and some 300 runs on them (by every user who may start the flow, and with run managers or monitors of their own)
 * are written straight to PostgreSQL; then, for each user and for each filter_roles value, every page the stores list
 * must hold exactly the flows and runs {@link Access} allows. The expectation is computed, never written down. Through
 * the stores, not the HTTP API, so nothing depends on how long a test token lives.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class ListingsAgreeWithAccessTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String WAIT = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}";
    /** Two owners, a third user who owns nothing, and one nobody names. */
    static final List<String> USERS = List.of("scientist", "scientist2", "admin", "outsider");
    static final List<String> FLOW_ROLES = List.of("flow_owners", "flow_administrators", "flow_starters", "flow_viewers",
            "run_managers", "run_monitors");
    static final List<String> PRINCIPALS = List.of("scientist", "scientist2", "admin", Access.ALL_AUTHENTICATED, Access.PUBLIC);
    static final List<String> RUN_PRINCIPALS = List.of("admin", Access.ALL_AUTHENTICATED);
    /** filter_roles on flows: the role {@link Access#flowRoles} reports for it. */
    static final Map<FlowQuery.Role, String> FLOW_FILTERS = Map.of(FlowQuery.Role.FLOW_OWNER, "flow_owner",
            FlowQuery.Role.FLOW_ADMINISTRATORS, "flow_administrator", FlowQuery.Role.FLOW_STARTERS, "flow_starter",
            FlowQuery.Role.FLOW_VIEWERS, "flow_viewer", FlowQuery.Role.RUN_MANAGERS, "flow_run_manager",
            FlowQuery.Role.RUN_MONITORS, "flow_run_monitor");
    static final Map<RunQuery.Role, String> RUN_FILTERS = Map.of(RunQuery.Role.RUN_OWNER, "run_owner",
            RunQuery.Role.RUN_MANAGERS, "run_manager", RunQuery.Role.RUN_MONITORS, "run_monitor",
            RunQuery.Role.FLOW_RUN_MANAGERS, "flow_run_manager", RunQuery.Role.FLOW_RUN_MONITORS, "flow_run_monitor");
    /** A small page, so that every listing takes several pages and the markers are exercised too. */
    static final int PAGE = 40;

    static final String TITLE = "access agreement " + UUID.randomUUID().toString().substring(0, 8);
    static final Map<UUID, FlowRecord> flows = new LinkedHashMap<>();
    static final List<RunRecord> runs = new ArrayList<>();

    @Inject
    DataSource db;

    @Inject
    FlowStore flowStore;

    @Inject
    RunStore runStore;

    @BeforeEach
    void writeEveryCombination() throws Exception {
        if (!flows.isEmpty()) {
            return;
        }
        // a real run's state document, copied into every run (the lists read it back; its content is not what is compared)
        String template = Flows.start(Flows.publish(WAIT), "{}");
        Instant at = Instant.now();
        for (String owner : List.of("scientist", "scientist2")) {
            addFlow(owner, JSON.createObjectNode(), at);
            for (String role : FLOW_ROLES) {
                for (String principal : PRINCIPALS) {
                    if (!principal.equals(owner)) {
                        ObjectNode roles = JSON.createObjectNode();
                        roles.putArray(role).add(principal);
                        addFlow(owner, roles, at);
                    }
                }
            }
        }
        for (FlowRecord flow : flows.values()) {
            for (String starter : USERS) {
                if (Access.startsFlow(flow, starter)) {
                    runs.add(run(flow, starter, List.of(), List.of(), at));
                }
            }
            for (String principal : RUN_PRINCIPALS) {
                runs.add(run(flow, flow.ownerId(), List.of(principal), List.of(), at));
                runs.add(run(flow, flow.ownerId(), List.of(), List.of(principal), at));
            }
        }
        try (Connection c = db.getConnection()) {
            insertFlows(c);
            insertRuns(c, UUID.fromString(template));
        }
    }

    static void addFlow(String owner, ObjectNode roles, Instant at) {
        FlowRecord flow = new FlowRecord(UUID.randomUUID(), owner, 1, TITLE, null, null, List.of(), roles, null, null,
                at.plusMillis(flows.size()), at);
        flows.put(flow.id(), flow);
    }

    static RunRecord run(FlowRecord flow, String owner, List<String> managers, List<String> monitors, Instant at) {
        return new RunRecord(UUID.randomUUID(), flow.id(), 1, owner, null, List.of(), null, at.plusMillis(runs.size()), at,
                null, managers, monitors);
    }

    void insertFlows(Connection c) throws Exception {
        try (PreparedStatement flow = c.prepareStatement("INSERT INTO flows (id, owner_id, current_version, title, roles, "
                + "created_at, updated_at) VALUES (?, ?, 1, ?, ?::jsonb, ?, ?)");
             PreparedStatement version = c.prepareStatement("INSERT INTO flow_versions (flow_id, version, definition, "
                     + "created_at) VALUES (?, 1, ?::jsonb, ?)")) {
            for (FlowRecord f : flows.values()) {
                flow.setObject(1, f.id());
                flow.setString(2, f.ownerId());
                flow.setString(3, f.title());
                flow.setString(4, f.roles().toString());
                flow.setTimestamp(5, Timestamp.from(f.createdAt()));
                flow.setTimestamp(6, Timestamp.from(f.updatedAt()));
                flow.addBatch();
                version.setObject(1, f.id());
                version.setString(2, WAIT);
                version.setTimestamp(3, Timestamp.from(f.createdAt()));
                version.addBatch();
            }
            flow.executeBatch();
            version.executeBatch();
        }
    }

    /** ACTIVE runs nobody wakes (no next_wake_at): the engine leaves them as written. */
    void insertRuns(Connection c, UUID template) throws Exception {
        try (PreparedStatement run = c.prepareStatement("""
                INSERT INTO runs (id, flow_id, flow_version, owner_id, status, tags, state, created_at, updated_at,
                                  run_managers, run_monitors)
                SELECT ?, ?, 1, ?, 'ACTIVE', '[]', t.state, ?, ?, ?::jsonb, ?::jsonb FROM runs t WHERE t.id = ?""")) {
            for (RunRecord r : runs) {
                run.setObject(1, r.id());
                run.setObject(2, r.flowId());
                run.setString(3, r.ownerId());
                run.setTimestamp(4, Timestamp.from(r.createdAt()));
                run.setTimestamp(5, Timestamp.from(r.updatedAt()));
                run.setString(6, JSON.writeValueAsString(r.runManagers()));
                run.setString(7, JSON.writeValueAsString(r.runMonitors()));
                run.setObject(8, template);
                run.addBatch();
            }
            for (int inserted : run.executeBatch()) {
                assertThat(inserted).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldListExactlyTheFlowsAccessLetsEachUserSeeAndHoldARoleOn() {
        assertThat(flows).hasSize(50);
        for (String user : USERS) {
            assertThat(listedFlows(user, Set.of())).as("flows %s may see", user)
                    .isEqualTo(expected(flows.values(), FlowRecord::id, flow -> Access.seesFlow(flow, user)));
            // a role filter narrows what the user may see, never widens it: a flow whose run_monitors (or run_managers)
            // name the user, but which the user may not open (GET /flows/{id} answers 404), is not listed either
            FLOW_FILTERS.forEach((filter, role) -> assertThat(listedFlows(user, Set.of(filter)))
                    .as("flows listed for %s with filter_roles=%s", user, filter)
                    .isEqualTo(expected(flows.values(), FlowRecord::id,
                            flow -> Access.seesFlow(flow, user) && Access.flowRoles(flow, user).contains(role))));
        }
    }

    @Test
    void shouldListExactlyTheRunsAccessLetsEachUserSeeManageAndHoldARoleOn() {
        assertThat(runs).hasSizeBetween(250, 400);
        for (String user : USERS) {
            assertThat(listedRuns(user, Set.of())).as("runs %s may see", user)
                    .isEqualTo(expected(runs, RunRecord::id, run -> Access.seesRun(run, flows.get(run.flowId()), user)));
            assertThat(listedRuns(user, EnumSet.of(RunQuery.Role.RUN_OWNER, RunQuery.Role.RUN_MANAGERS, RunQuery.Role.FLOW_RUN_MANAGERS)))
                    .as("runs %s may manage", user)
                    .isEqualTo(expected(runs, RunRecord::id, run -> Access.managesRun(run, flows.get(run.flowId()), user)));
            RUN_FILTERS.forEach((filter, role) -> assertThat(listedRuns(user, Set.of(filter)))
                    .as("runs listed for %s with filter_roles=%s", user, filter)
                    .isEqualTo(expected(runs, RunRecord::id, run -> Access.runRoles(run, flows.get(run.flowId()), user).contains(role))));
        }
    }

    static <T> Set<UUID> expected(java.util.Collection<T> all, Function<T, UUID> id, Predicate<T> allowed) {
        return all.stream().filter(allowed).map(id).collect(Collectors.toSet());
    }

    /** Every page of this test's flows the store lists for {@code user}. */
    Set<UUID> listedFlows(String user, Set<FlowQuery.Role> roles) {
        FlowQuery.Filter filter = new FlowQuery.Filter(List.of(), List.of(TITLE), List.of(), List.of(), List.of(), roles);
        return pages(after -> flowStore.list(new FlowQuery(filter, FlowQuery.NEWEST_FIRST, after, PAGE, 0), Viewer.of(user))
                .await().indefinitely(), FlowRecord::id);
    }

    /** Every page of the runs of this test's flows the store lists for {@code user}. */
    Set<UUID> listedRuns(String user, Set<RunQuery.Role> roles) {
        RunQuery.Filter filter = new RunQuery.Filter(List.copyOf(flows.keySet()), List.of(), List.of(), Optional.empty(),
                List.of(), List.of(), List.of(), TimeRange.ANY, TimeRange.ANY, roles);
        return pages(after -> runStore.list(new RunQuery(filter, RunQuery.NEWEST_FIRST, after, PAGE, 0), Viewer.of(user))
                .await().indefinitely(), RunRecord::id);
    }

    /** Follows the markers to the last page; no item may come twice. */
    static <T> Set<UUID> pages(Function<List<String>, Slice<T>> page, Function<T, UUID> id) {
        List<UUID> seen = new ArrayList<>();
        List<String> after = List.of();
        do {
            Slice<T> slice = page.apply(after);
            slice.items().forEach(item -> seen.add(id.apply(item)));
            after = slice.after();
        } while (!after.isEmpty());
        assertThat(seen).doesNotHaveDuplicates();
        return Set.copyOf(seen);
    }
}
