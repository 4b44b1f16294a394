package dev.continuum.engine.api;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.greaterThanOrEqualTo;
import static org.hamcrest.Matchers.notNullValue;

@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class FlowApiTest {

    static final String PASS_FLOW = """
            {"StartAt":"Hello","States":{"Hello":{"Type":"Pass","Result":{"greeting":"hi"},"ResultPath":"$.out","End":true}}}""";

    @Test
    void shouldPublishFlowAsVersionOneAndReadItBack() {
        String id = Flows.publish(PASS_FLOW);
        given().when().get("/flows/" + id).then().statusCode(200)
                .body("id", equalTo(id))
                .body("version", equalTo(1))
                .body("title", equalTo("test flow"))
                .body("definition.StartAt", equalTo("Hello"));
    }

    @Test
    void shouldListEveryProblemWithPointersWhenValidatingABrokenFlow() {
        String broken = """
                {"definition":{"StartAt":"Missing","States":{"A":{"Type":"Pass","Next":"Nowhere","End":true},
                 "B":{"Type":"Bogus"}}}}""";
        given().contentType(ContentType.JSON).body(broken)
                .when().post("/flows/validate")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("errors.size()", greaterThanOrEqualTo(3))
                .body("errors.pointer", hasItem(containsString("/definition/States/A")))
                .body("errors.pointer", hasItem(containsString("/definition/States/B")));
    }

    @Test
    void shouldAcceptAValidFlowInValidate() {
        given().contentType(ContentType.JSON).body("{\"definition\":" + PASS_FLOW + "}")
                .when().post("/flows/validate")
                .then().statusCode(200).body("valid", equalTo(true));
    }

    @Test
    void shouldRefuseToSaveAnInvalidFlow() {
        given().contentType(ContentType.JSON)
                .body("{\"title\":\"x\",\"definition\":{\"StartAt\":\"A\",\"States\":{}}}")
                .when().post("/flows")
                .then().statusCode(400).body("errors.pointer", hasItem(containsString("/definition")));
        given().contentType(ContentType.JSON).body("{\"definition\":" + PASS_FLOW + "}")
                .when().post("/flows")
                .then().statusCode(400).body("errors.pointer", hasItem("/title"));
    }

    @Test
    void shouldNameAnUnknownFieldInTheRequestBody() {
        given().contentType(ContentType.JSON).body("{\"title\":\"x\",\"definitoin\":{}}")
                .when().post("/flows")
                .then().statusCode(400).contentType("application/problem+json")
                .body("detail", containsString("definitoin"));
    }

    @Test
    void shouldAnswerMalformedJsonWithProblemNotServerError() {
        given().contentType(ContentType.JSON).body("{\"title\": ")
                .when().post("/flows")
                .then().statusCode(400).contentType("application/problem+json").body("title", notNullValue());
    }

    @Test
    void shouldAnswer404ProblemForUnknownFlowAnd400ForMalformedId() {
        given().when().get("/flows/00000000-0000-0000-0000-000000000000").then().statusCode(404)
                .contentType("application/problem+json");
        given().when().get("/flows/not-a-uuid").then().statusCode(400).body("errors[0].pointer", equalTo("/flowId"));
    }

    @Test
    void shouldCreateNewVersionOnUpdateAndHideDeletedFlows() {
        String id = Flows.publish(PASS_FLOW);
        given().contentType(ContentType.JSON).body("{\"title\":\"renamed\"}")
                .when().put("/flows/" + id)
                .then().statusCode(200).body("version", equalTo(2)).body("title", equalTo("renamed"));
        given().when().delete("/flows/" + id).then().statusCode(204);
        given().when().get("/flows/" + id).then().statusCode(404);
    }

    @Test
    void shouldPageFlowListsAndRefuseBadPaging() {
        Flows.publish(PASS_FLOW);
        Flows.publish(PASS_FLOW);
        given().when().get("/flows?limit=1").then().statusCode(200)
                .body("flows", hasSize(1)).body("has_next_page", equalTo(true));
        given().when().get("/flows?limit=0").then().statusCode(400).body("errors[0].pointer", equalTo("/limit"));
    }

    @Test
    void shouldRefuseAnInputSchemaThatIsNotASchema() {
        given().contentType(ContentType.JSON)
                .body("{\"title\":\"x\",\"definition\":" + PASS_FLOW + ",\"input_schema\":{\"type\":\"nonsense\"}}")
                .when().post("/flows")
                .then().statusCode(400).body("errors.pointer", hasItem(containsString("/input_schema")));
    }
}
