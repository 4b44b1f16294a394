package dev.continuum.engine.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.engine.app.Access;
import dev.continuum.engine.app.FlowRecord;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static dev.continuum.engine.support.Tokens.as;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine decides who sees what twice: in Java ({@link Access}, for one flow or run) and in SQL (the list queries of
 * PgRunStore and HibernateFlowStore). This publishes a flow for every owner x flow role x principal, starts runs on
 * each with every run role and by every user who may start, and checks that for each user GET /flows and GET /runs,
 * plain and per filter_roles value, list exactly the flows and runs {@link Access} allows: the expectation is computed,
 * never written down.
 */
@QuarkusTest
@TestProfile(AuthOn.class)
class AccessAgreementApiTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String WAIT = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}";
    static final List<String> USERS = List.of("scientist", "scientist2", "admin");
    static final List<String> FLOW_ROLES = List.of("flow_owners", "flow_administrators", "flow_starters", "flow_viewers",
            "run_managers", "run_monitors");
    static final List<String> PRINCIPALS = List.of("scientist", "scientist2", "admin", Access.ALL_AUTHENTICATED, Access.PUBLIC);
    static final List<String> RUN_PRINCIPALS = List.of("admin", Access.ALL_AUTHENTICATED);
    /** filter_roles value -> the role Access reports in user_roles. */
    static final Map<String, String> FLOW_FILTERS = Map.of("flow_owner", "flow_owner", "flow_administrators",
            "flow_administrator", "flow_starters", "flow_starter", "flow_viewers", "flow_viewer", "run_managers",
            "flow_run_manager", "run_monitors", "flow_run_monitor");
    static final Map<String, String> RUN_FILTERS = Map.of("run_owner", "run_owner", "run_managers", "run_manager",
            "run_monitors", "run_monitor", "flow_run_managers", "flow_run_manager", "flow_run_monitors", "flow_run_monitor");

    static final Map<String, String> tokens = new LinkedHashMap<>();
    static final List<FlowRecord> flows = new ArrayList<>();
    static final List<RunRecord> runs = new ArrayList<>();
    static final Map<UUID, FlowRecord> flowOf = new LinkedHashMap<>();

    /** Once per class, but from the first test: RestAssured points at the engine only from then on. */
    @BeforeEach
    void publishEveryCombination() {
        if (!flows.isEmpty()) {
            return;
        }
        USERS.forEach(user -> tokens.put(user, Tokens.of(user)));
        for (String owner : List.of("scientist", "scientist2")) {
            flows.add(publish(owner, JSON.createObjectNode()));
            for (String role : FLOW_ROLES) {
                for (String principal : PRINCIPALS) {
                    if (!principal.equals(owner)) {
                        ObjectNode roles = JSON.createObjectNode();
                        roles.putArray(role).add(principal);
                        flows.add(publish(owner, roles));
                    }
                }
            }
        }
        for (FlowRecord flow : flows) {
            for (String starter : USERS) {
                if (Access.startsFlow(flow, starter)) {
                    runs.add(start(flow, starter, List.of(), List.of()));
                }
            }
            for (String principal : RUN_PRINCIPALS) {
                runs.add(start(flow, flow.ownerId(), List.of(principal), List.of()));
                runs.add(start(flow, flow.ownerId(), List.of(), List.of(principal)));
            }
        }
    }

    static FlowRecord publish(String owner, ObjectNode roles) {
        ObjectNode body = JSON.createObjectNode().put("title", "access agreement");
        body.set("definition", read(WAIT));
        body.setAll(roles);
        String id = as(tokens.get(owner)).body(body.toString()).when().post("/flows").then().statusCode(201).extract().path("id");
        FlowRecord flow = new FlowRecord(UUID.fromString(id), owner, 1, "access agreement", null, null, List.of(), roles,
                null, null, null, null);
        flowOf.put(flow.id(), flow);
        return flow;
    }

    static RunRecord start(FlowRecord flow, String starter, List<String> managers, List<String> monitors) {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("body");
        managers.forEach(body.withArray("run_managers")::add);
        monitors.forEach(body.withArray("run_monitors")::add);
        String id = as(tokens.get(starter)).body(body.toString()).when().post("/flows/" + flow.id() + "/run")
                .then().statusCode(201).extract().path("run_id");
        return new RunRecord(UUID.fromString(id), flow.id(), 1, starter, null, List.of(), null, null, null, null, managers, monitors);
    }

    @Test
    void shouldListExactlyTheFlowsAccessLetsEachUserSee() {
        for (String user : USERS) {
            assertThat(listedFlows(user, "")).as("GET /flows for %s", user)
                    .isEqualTo(expectedFlows(flow -> Access.seesFlow(flow, user)));
            FLOW_FILTERS.forEach((filter, role) -> assertThat(listedFlows(user, "&filter_roles=" + filter))
                    .as("GET /flows?filter_roles=%s for %s", filter, user)
                    .isEqualTo(expectedFlows(flow -> Access.flowRoles(flow, user).contains(role))));
        }
    }

    @Test
    void shouldListExactlyTheRunsAccessLetsEachUserSee() {
        for (String user : USERS) {
            assertThat(listedRuns(user, "")).as("GET /runs for %s", user)
                    .isEqualTo(expectedRuns(run -> Access.seesRun(run, flowOf.get(run.flowId()), user)));
            RUN_FILTERS.forEach((filter, role) -> assertThat(listedRuns(user, "&filter_roles=" + filter))
                    .as("GET /runs?filter_roles=%s for %s", filter, user)
                    .isEqualTo(expectedRuns(run -> Access.runRoles(run, flowOf.get(run.flowId()), user).contains(role))));
        }
    }

    static Set<UUID> expectedFlows(Predicate<FlowRecord> allowed) {
        return flows.stream().filter(allowed).map(FlowRecord::id).collect(Collectors.toSet());
    }

    static Set<UUID> expectedRuns(Predicate<RunRecord> allowed) {
        return runs.stream().filter(allowed).map(RunRecord::id).collect(Collectors.toSet());
    }

    /** Every page of GET /flows, cut to this test's flows (other tests publish too). */
    static Set<UUID> listedFlows(String user, String query) {
        return pages(user, "/flows?limit=100" + query, "flows", "id").stream().filter(flowOf::containsKey)
                .collect(Collectors.toSet());
    }

    static Set<UUID> listedRuns(String user, String query) {
        String ids = flows.stream().map(flow -> flow.id().toString()).collect(Collectors.joining(","));
        return Set.copyOf(pages(user, "/runs?limit=100&filter_flow_id=" + ids + query, "runs", "run_id"));
    }

    static List<UUID> pages(String user, String first, String list, String idField) {
        List<UUID> ids = new ArrayList<>();
        String marker = null;
        do {
            String url = marker == null ? first : first.substring(0, first.indexOf('?')) + "?marker=" + marker;
            JsonPath page = as(tokens.get(user)).when().get(url).then().statusCode(200).extract().jsonPath();
            page.getList(list + "." + idField, String.class).forEach(id -> ids.add(UUID.fromString(id)));
            marker = page.getBoolean("has_next_page") ? page.getString("marker") : null;
        } while (marker != null);
        return ids;
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
