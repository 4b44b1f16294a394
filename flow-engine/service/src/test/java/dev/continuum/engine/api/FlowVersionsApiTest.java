package dev.continuum.engine.api;

import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static dev.continuum.engine.support.Tokens.as;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

/** A flow's versions through the API with real tokens: who changed what and when, and runs of a chosen version. */
@QuarkusTest
@TestProfile(AuthOn.class)
class FlowVersionsApiTest {

    static String scientist;
    static String scientist2;
    static String admin;

    @BeforeAll
    static void signIn() {
        scientist = Tokens.of("scientist");
        scientist2 = Tokens.of("scientist2");
        admin = Tokens.of("admin");
    }

    static String greeting(String word) {
        return "{\"StartAt\":\"Hello\",\"States\":{\"Hello\":{\"Type\":\"Pass\",\"Result\":{\"greeting\":\"" + word
                + "\"},\"ResultPath\":\"$.out\",\"End\":true}}}";
    }

    static String publish(String roles) {
        return as(scientist).body("{\"title\":\"greeter\",\"definition\":" + greeting("one") + (roles.isEmpty() ? "" : "," + roles) + "}")
                .when().post("/flows").then().statusCode(201).extract().path("id");
    }

    static void update(String token, String flow, String body) {
        as(token).body(body).when().put("/flows/" + flow).then().statusCode(200);
    }

    @Test
    void shouldListVersionsNewestFirstWithWhoChangedWhatAfterTwoUpdates() {
        String flow = publish("\"flow_administrators\":[\"scientist2\"]");
        update(scientist, flow, "{\"definition\":" + greeting("two") + "}");
        update(scientist2, flow, "{\"title\":\"greeter, renamed\"}");

        as(scientist).when().get("/flows/" + flow + "/versions").then().statusCode(200)
                .body("versions.version", contains(3, 2, 1))
                .body("versions.created_by", contains("scientist2", "scientist", "scientist"))
                .body("versions[0].changes", contains("title"))
                .body("versions[1].changes", contains("definition"))
                .body("versions[2].changes", empty())
                .body("versions[2].summary", equalTo("Created the flow"))
                .body("versions[0].summary", equalTo("Changed title"))
                .body("versions.created_at", contains(notNullValue(), notNullValue(), notNullValue()))
                .body("has_next_page", equalTo(false));
    }

    @Test
    void shouldPageVersionsWithTheMarkerOfThePageBefore() {
        String flow = publish("");
        update(scientist, flow, "{\"description\":\"says hello\"}");
        update(scientist, flow, "{\"keywords\":[\"demo\"]}");

        String marker = as(scientist).when().get("/flows/" + flow + "/versions?limit=2").then().statusCode(200)
                .body("versions.version", contains(3, 2)).body("has_next_page", equalTo(true))
                .body("versions.changes", contains(contains("keywords"), contains("description")))
                .extract().path("marker");
        as(scientist).queryParam("marker", marker).when().get("/flows/" + flow + "/versions").then().statusCode(200)
                .body("versions.version", contains(1)).body("has_next_page", equalTo(false));
    }

    @Test
    void shouldShowOneVersionAsItWasSaved() {
        String flow = publish("");
        update(scientist, flow, "{\"title\":\"greeter 2\",\"definition\":" + greeting("two") + "}");

        as(scientist).when().get("/flows/" + flow + "/versions/1").then().statusCode(200)
                .body("version", equalTo(1)).body("title", equalTo("greeter")).body("created_by", equalTo("scientist"))
                .body("definition.States.Hello.Result.greeting", equalTo("one"));
        as(scientist).when().get("/flows/" + flow + "/versions/2").then().statusCode(200)
                .body("title", equalTo("greeter 2")).body("definition.States.Hello.Result.greeting", equalTo("two"));
        as(scientist).when().get("/flows/" + flow + "/versions/3").then().statusCode(404).contentType("application/problem+json");
        as(scientist).when().get("/flows/" + flow + "/versions/latest").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/version"));
    }

    @Test
    void shouldRunTheOldDefinitionWhenARunNamesVersionOneAfterAnUpdate() {
        String flow = publish("");
        update(scientist, flow, "{\"definition\":" + greeting("two") + "}");

        String old = as(scientist).body("{\"body\":{},\"flow_version\":1}").when().post("/flows/" + flow + "/run")
                .then().statusCode(201).body("flow_version", equalTo(1)).extract().path("run_id");
        String latest = as(scientist).body("{\"body\":{}}").when().post("/flows/" + flow + "/run")
                .then().statusCode(201).body("flow_version", equalTo(2)).extract().path("run_id");

        Tokens.awaitStatus(scientist, old, "SUCCEEDED");
        Tokens.awaitStatus(scientist, latest, "SUCCEEDED");
        as(scientist).when().get("/runs/" + old).then().statusCode(200)
                .body("flow_version", equalTo(1)).body("details.output.out.greeting", equalTo("one"));
        as(scientist).when().get("/runs/" + latest).then().statusCode(200)
                .body("flow_version", equalTo(2)).body("details.output.out.greeting", equalTo("two"));
    }

    @Test
    void shouldRefuseARunOfAVersionTheFlowDoesNotHaveNamingFlowVersion() {
        String flow = publish("");

        as(scientist).body("{\"body\":{},\"flow_version\":7}").when().post("/flows/" + flow + "/run")
                .then().statusCode(400).contentType("application/problem+json")
                .body("errors.pointer", hasItem("/flow_version"));
        as(scientist).body("{\"body\":{},\"flow_version\":0}").when().post("/flows/" + flow + "/run")
                .then().statusCode(400).body("errors.pointer", hasItem("/flow_version"));
    }

    @Test
    void shouldAnswerAStrangerAsIfTheFlowDidNotExistAndLetAViewerList() {
        String flow = publish("\"flow_viewers\":[\"admin\"]");

        as(scientist2).when().get("/flows/" + flow).then().statusCode(404);
        as(scientist2).when().get("/flows/" + flow + "/versions").then().statusCode(404).contentType("application/problem+json");
        as(scientist2).when().get("/flows/" + flow + "/versions/1").then().statusCode(404);
        as(admin).when().get("/flows/" + flow + "/versions").then().statusCode(200).body("versions.version", contains(1));
        as(admin).when().get("/flows/" + flow + "/versions/1").then().statusCode(200).body("flow_viewers", empty());
    }
}
