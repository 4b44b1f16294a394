package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

/**
 * The Flows and Runs API in the shapes the Globus Flows API documents (globus-sdk's FlowsClient reads them:
 * list_flows, list_runs, get_run, get_run_definition, update_run, get_run_logs), field by field.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class GlobusRunApiTest {

    static final String TWO_PASSES = """
            {"StartAt":"First","States":{"First":{"Type":"Pass","Result":1,"ResultPath":"$.one","Next":"Second"},
             "Second":{"Type":"Pass","Result":2,"ResultPath":"$.two","End":true}}}""";

    private static String publishTitled(String title, String definition) {
        return given().contentType(ContentType.JSON)
                .body("{\"title\":\"" + title + "\",\"subtitle\":\"sub\",\"description\":\"does " + title + "\","
                        + "\"keywords\":[\"kw-" + title + "\"],\"definition\":" + definition
                        + ",\"input_schema\":{\"type\":\"object\"},\"flow_viewers\":[\"public\"],\"run_monitors\":[\"someone\"]}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    private static String start(String flowId, String label, String... tags) {
        String tagList = String.join("\",\"", tags);
        return given().contentType(ContentType.JSON)
                .body("{\"body\":{},\"label\":\"" + label + "\",\"tags\":[" + (tags.length == 0 ? "" : "\"" + tagList + "\"") + "],"
                        + "\"run_managers\":[\"manager-1\"],\"run_monitors\":[\"monitor-1\"]}")
                .when().post("/flows/" + flowId + "/run").then().statusCode(201).extract().path("run_id");
    }

    @Test
    void shouldListFlowsUnderFlowsWithGlobusFlowFields() {
        String title = "shape-" + UUID.randomUUID();
        String id = publishTitled(title, TWO_PASSES);

        JsonPath page = given().when().get("/flows?filter_fulltext=" + title).then().statusCode(200).extract().jsonPath();

        assertThat(page.getList("flows.id")).containsExactly(id);
        assertThat(page.getBoolean("has_next_page")).isFalse();
        assertThat(page.getInt("limit")).isEqualTo(100);
        assertThat(page.getMap("$")).doesNotContainKey("marker").doesNotContainKey("items");
        Map<String, Object> flow = page.getMap("flows[0]");
        assertThat(flow).containsEntry("title", title).containsEntry("subtitle", "sub")
                .containsEntry("description", "does " + title).containsEntry("keywords", List.of("kw-" + title))
                .containsEntry("flow_owner", "local:scientist").containsEntry("created_by", "local:scientist")
                .containsEntry("flow_viewers", List.of("public")).containsEntry("flow_starters", List.of())
                .containsEntry("flow_administrators", List.of()).containsEntry("run_monitors", List.of("someone"))
                .containsEntry("run_managers", List.of()).containsEntry("user_role", "flow_owner")
                .containsEntry("synchronous", false).containsEntry("log_supported", true)
                .containsEntry("types", List.of("Action")).containsEntry("api_version", "1.0")
                .containsKeys("definition", "input_schema", "created_at", "updated_at", "user_roles");
        assertThat(flow).doesNotContainKey("roles");
    }

    @Test
    void shouldPageFlowsByMarkerWithoutRepeatsAndFilterByTitleAndKeyword() {
        String tag = UUID.randomUUID().toString().substring(0, 8);
        List<String> published = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            published.add(publishTitled("paged-" + tag + "-" + i, TWO_PASSES));
        }
        List<String> seen = new ArrayList<>();
        String marker = null;
        int pages = 0;
        do {
            var request = given().queryParam("filter_title", "paged-" + tag).queryParam("orderby", "title ASC").queryParam("limit", 2);
            JsonPath page = (marker == null ? request : given().queryParam("marker", marker))
                    .when().get("/flows").then().statusCode(200).extract().jsonPath();
            seen.addAll(page.getList("flows.id"));
            marker = page.getBoolean("has_next_page") ? page.getString("marker") : null;
            pages++;
        } while (marker != null);

        assertThat(seen).containsExactlyElementsOf(published);
        assertThat(pages).isEqualTo(3);
        given().when().get("/flows?filter_keywords=kw-paged-" + tag + "-3").then().body("flows.id", contains(published.get(3)));
    }

    @Test
    void shouldListRunsUnderRunsWithGlobusRunFields() {
        String flowId = publishTitled("runs-shape", TWO_PASSES);
        String runId = start(flowId, "shape run", "  two   words ");
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED");

        JsonPath page = given().when().get("/runs?filter_flow_id=" + flowId).then().statusCode(200).extract().jsonPath();

        assertThat(page.getList("runs.run_id")).containsExactly(runId);
        assertThat(page.getBoolean("has_next_page")).isFalse();
        Map<String, Object> run = page.getMap("runs[0]");
        assertThat(run).containsEntry("run_id", runId).containsEntry("action_id", runId).containsEntry("flow_id", flowId)
                .containsEntry("flow_title", "runs-shape").containsEntry("status", "SUCCEEDED")
                .containsEntry("display_status", "SUCCEEDED").containsEntry("label", "shape run")
                .containsEntry("tags", List.of("two words")).containsEntry("run_owner", "local:scientist")
                .containsEntry("created_by", "local:scientist").containsEntry("run_managers", List.of("manager-1"))
                .containsEntry("run_monitors", List.of("monitor-1")).containsEntry("manage_by", List.of("manager-1"))
                .containsEntry("monitor_by", List.of("monitor-1")).containsEntry("user_role", "run_owner")
                .containsKeys("start_time", "completion_time", "flow_last_updated", "user_roles");
        assertThat(page.getString("runs[0].details.code")).isEqualTo("FlowSucceeded");
        assertThat(page.getString("runs[0].details.description")).isNotBlank();
        assertThat(page.getInt("runs[0].details.output.two")).isEqualTo(2);
    }

    @Test
    void shouldSearchRunsByStatusLabelTagTimeAndOrderThemServerSide() {
        String flowId = publishTitled("search", TWO_PASSES);
        String wait = publishTitled("search-wait", "{\"StartAt\":\"W\",\"States\":{\"W\":{\"Type\":\"Wait\",\"Seconds\":100000,\"End\":true}}}");
        Instant before = Instant.now().minusSeconds(1);
        String alpha = start(flowId, "Alpha sample", "batch-7");
        String beta = start(flowId, "beta SAMPLE", "batch-8");
        String waiting = start(wait, "gamma", "batch-7");
        Flows.awaitStatus(alpha, Duration.ofSeconds(10), "SUCCEEDED");
        Flows.awaitStatus(beta, Duration.ofSeconds(10), "SUCCEEDED");
        String flows = flowId + "," + wait;

        given().queryParam("filter_flow_id", flows).queryParam("filter_status", "ACTIVE").when().get("/runs")
                .then().statusCode(200).body("runs.run_id", contains(waiting));
        given().queryParam("filter_flow_id", flows).queryParam("filter_label", "sample").queryParam("orderby", "label ASC")
                .when().get("/runs").then().body("runs.run_id", contains(alpha, beta));
        given().queryParam("filter_flow_id", flows).queryParam("filter_tags", "batch-7").queryParam("orderby", "start_time ASC")
                .when().get("/runs").then().body("runs.run_id", contains(alpha, waiting));
        given().queryParam("filter_flow_id", flows).queryParam("filter_start_time", before + ",")
                .queryParam("filter_completion_time", before + ",").when().get("/runs")
                .then().body("runs.run_id", contains(beta, alpha));
        given().queryParam("filter_flow_id", flows).queryParam("filter_start_time", "," + before).when().get("/runs")
                .then().body("runs", org.hamcrest.Matchers.empty());
        given().queryParam("filter_flow_id", flows).queryParam("filter_roles", "run_owner").queryParam("per_page", 1)
                .when().get("/runs").then().body("runs.run_id", contains(waiting)).body("has_next_page", equalTo(true))
                .body("marker", notNullValue());
    }

    @Test
    void shouldRefuseBadListParametersNamingThem() {
        given().when().get("/runs?filter_status=DONE").then().statusCode(400).contentType("application/problem+json")
                .body("errors[0].pointer", equalTo("/filter_status"));
        given().when().get("/runs?orderby=colour ASC").then().statusCode(400).body("errors[0].pointer", equalTo("/orderby"));
        given().when().get("/runs?filter_start_time=yesterday,").then().statusCode(400).body("errors[0].pointer", equalTo("/filter_start_time"));
        given().when().get("/runs?filter_roles=boss").then().statusCode(400).body("errors[0].pointer", equalTo("/filter_roles"));
        given().when().get("/runs?filter_flow_id=nope").then().statusCode(400).body("errors[0].pointer", equalTo("/filter_flow_id"));
        given().when().get("/runs?marker=not-ours").then().statusCode(400).body("errors[0].pointer", equalTo("/marker"));
        given().when().get("/flows?filter_scope_string=x").then().statusCode(400).body("errors[0].pointer", equalTo("/filter_scope_string"));
        given().when().get("/flows?limit=0").then().statusCode(400).body("errors[0].pointer", equalTo("/limit"));
    }

    @Test
    void shouldAddTheFlowDescriptionOnlyWhenAsked() {
        String flowId = publishTitled("described", TWO_PASSES);
        String runId = start(flowId, "d");

        given().when().get("/runs/" + runId).then().statusCode(200).body("$", not(hasKey("flow_description")));
        given().when().get("/runs/" + runId + "?include_flow_description=True").then().statusCode(200)
                .body("flow_description.id", equalTo(flowId)).body("flow_description.title", equalTo("described"))
                .body("flow_description.subtitle", equalTo("sub")).body("flow_description.description", equalTo("does described"))
                .body("flow_description.keywords", contains("kw-described")).body("flow_description.flow_owner", equalTo("local:scientist"))
                .body("flow_description.created_at", notNullValue()).body("flow_description.updated_at", notNullValue());
        given().when().get("/runs/" + runId + "?include_flow_description=maybe").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/include_flow_description"));
    }

    @Test
    void shouldShowTheDefinitionARunStartedWithAfterTheFlowChanged() {
        String flowId = publishTitled("versioned", TWO_PASSES);
        String runId = start(flowId, "v1");
        given().contentType(ContentType.JSON).body("{\"definition\":{\"StartAt\":\"Only\",\"States\":{\"Only\":{\"Type\":\"Pass\",\"End\":true}}}}")
                .when().put("/flows/" + flowId).then().statusCode(200);

        given().when().get("/runs/" + runId + "/definition").then().statusCode(200)
                .body("flow_id", equalTo(flowId)).body("flow_version", equalTo(1))
                .body("definition.StartAt", equalTo("First")).body("input_schema.type", equalTo("object"));
        given().when().get("/runs/" + UUID.randomUUID() + "/definition").then().statusCode(404).contentType("application/problem+json");
        given().when().get("/runs/nope/definition").then().statusCode(400).body("errors[0].pointer", equalTo("/runId"));
    }

    @Test
    void shouldUpdateLabelTagsAndRolesAndKeepWhatWasLeftOut() {
        String runId = start(publishTitled("updated", TWO_PASSES), "before", "old");

        given().contentType(ContentType.JSON).body("{\"label\":\"after\",\"tags\":[\" new  tag \"],\"run_monitors\":[\"watcher\"]}")
                .when().put("/runs/" + runId).then().statusCode(200)
                .body("run_id", equalTo(runId)).body("label", equalTo("after")).body("tags", contains("new tag"))
                .body("run_monitors", contains("watcher")).body("run_managers", contains("manager-1"));
        given().when().get("/runs/" + runId).then().body("label", equalTo("after")).body("tags", contains("new tag"));
        given().queryParam("filter_tags", "new tag").when().get("/runs").then().body("runs.run_id", hasItem(runId));
    }

    @Test
    void shouldRefuseABadRunUpdateNamingTheField() {
        String runId = start(publishTitled("bad-update", TWO_PASSES), "x");

        given().contentType(ContentType.JSON).body("{\"label\":\"\"}").when().put("/runs/" + runId)
                .then().statusCode(400).contentType("application/problem+json").body("errors[0].pointer", equalTo("/label"));
        given().contentType(ContentType.JSON).body("{\"tags\":[\"ok\",\" \"]}").when().put("/runs/" + runId)
                .then().statusCode(400).body("errors[0].pointer", equalTo("/tags/1"));
        given().contentType(ContentType.JSON).body("{\"run_managers\":\"everyone\"}").when().put("/runs/" + runId)
                .then().statusCode(400).body("errors[0].pointer", equalTo("/run_managers"));
        given().contentType(ContentType.JSON).body("{\"status\":\"SUCCEEDED\"}").when().put("/runs/" + runId)
                .then().statusCode(400).body("detail", containsString("status"));
        given().contentType(ContentType.JSON).body("{\"label\":\"x\"}").when().put("/runs/" + UUID.randomUUID()).then().statusCode(404);
    }

    @Test
    void shouldPageTheLogByMarkerBothWaysWithGlobusEventFields() {
        String runId = start(publishTitled("logged", TWO_PASSES), "log");
        Flows.awaitStatus(runId, Duration.ofSeconds(10), "SUCCEEDED");
        List<String> all = given().when().get("/runs/" + runId + "/log").then().extract().path("entries.code");
        assertThat(all).containsExactly("FlowStarted", "PassCompleted", "PassCompleted", "FlowSucceeded");

        JsonPath first = given().when().get("/runs/" + runId + "/log?limit=3").then().statusCode(200).extract().jsonPath();
        assertThat(first.getList("entries.code")).containsExactly("FlowStarted", "PassCompleted", "PassCompleted");
        assertThat(first.getBoolean("has_next_page")).isTrue();
        assertThat(first.getInt("limit")).isEqualTo(3);
        assertThat(first.getString("entries[1].details.state_name")).isEqualTo("First");
        assertThat(first.getString("entries[1].details.state_type")).isEqualTo("Pass");
        assertThat(first.getMap("entries[0]")).containsKeys("time", "code", "description", "details");
        given().when().get("/runs/" + runId + "/log?limit=3&marker=" + first.getString("marker")).then()
                .body("entries.code", contains("FlowSucceeded")).body("has_next_page", equalTo(false))
                .body("$", not(hasKey("marker")));

        JsonPath newest = given().when().get("/runs/" + runId + "/log?limit=2&reverse_order=True").then().extract().jsonPath();
        assertThat(newest.getList("entries.code")).containsExactly("FlowSucceeded", "PassCompleted");
        assertThat(newest.getString("entries[1].details.state_name")).isEqualTo("Second");
        given().when().get("/runs/" + runId + "/log?limit=2&reverse_order=true&marker=" + newest.getString("marker"))
                .then().body("entries.code", contains("PassCompleted", "FlowStarted")).body("has_next_page", equalTo(false));
        given().when().get("/runs/" + runId + "/log?marker=abc").then().statusCode(400).body("errors[0].pointer", equalTo("/marker"));
        given().when().get("/runs/" + runId + "/log?reverse_order=sideways").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/reverse_order"));
    }
}
