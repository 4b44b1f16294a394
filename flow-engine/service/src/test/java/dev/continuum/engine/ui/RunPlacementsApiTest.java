package dev.continuum.engine.ui;

import com.sun.net.httpserver.HttpServer;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.KeycloakResource;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;

/**
 * GET /runs/{id}/placements passes the run page's question on to the placement planner with the caller's own token, so
 * the browser stays on the engine's origin. The planner here is a stand-in HTTP server answering GET /placements in the
 * planner service's shape ({"placements": [...], "marker"}) and recording what it was asked; the engine, Keycloak and
 * PostgreSQL are real. (Without continuum.ui.planner-url the answer says so: LiveApiTest.)
 */
@QuarkusTest
@TestProfile(RunPlacementsApiTest.PlannerBeside.class)
class RunPlacementsApiTest {

    static final String WAIT = "{\"StartAt\":\"Nap\",\"States\":{\"Nap\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}";

    @Test
    void shouldAskThePlannerAboutTheRunWithTheCallersTokenAndOnlyForThoseWhoMaySeeIt() {
        String token = Tokens.of("scientist");
        String flow = as(token).body("{\"title\":\"placed\",\"definition\":" + WAIT + "}").when().post("/flows").then().statusCode(201)
                .extract().path("id");
        String run = as(token).body("{\"body\":{}}").when().post("/flows/" + flow + "/run").then().statusCode(201).extract().path("run_id");

        as(token).when().get("/runs/" + run + "/placements").then().statusCode(200)
                .body("planner", equalTo("answered"))
                .body("placements.site", contains("gw-1"))
                .body("placements[0].decision.reasons[0]", equalTo("placed on gw-1: lowest predicted latency"));
        assertThat(StandInPlanner.asked).anySatisfy(q -> assertThat(q).contains("subject=" + run).contains("Bearer " + token));

        int before = StandInPlanner.asked.size();
        as(Tokens.of("scientist2")).when().get("/runs/" + run + "/placements").then().statusCode(404);
        given().when().get("/runs/" + run + "/placements").then().statusCode(401);
        as(token).when().get("/runs/not-a-uuid/placements").then().statusCode(400);
        assertThat(StandInPlanner.asked).as("the planner is not asked for someone who may not see the run").hasSize(before);
    }

    public static class PlannerBeside implements QuarkusTestProfile {
        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(KeycloakResource.class), new TestResourceEntry(StandInPlanner.class));
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return new AuthOn().getConfigOverrides();
        }
    }

    /** Answers GET /placements?subject=… with one decision about the subject; remembers each query and its token. */
    public static class StandInPlanner implements QuarkusTestResourceLifecycleManager {
        static final List<String> asked = new CopyOnWriteArrayList<>();
        private HttpServer server;

        @Override
        public Map<String, String> start() {
            try {
                server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            server.createContext("/placements", exchange -> {
                String query = exchange.getRequestURI().getRawQuery();
                asked.add(query + " " + exchange.getRequestHeaders().getFirst("Authorization"));
                String subject = query.replaceAll(".*subject=([^&]+).*", "$1");
                byte[] body = ("{\"placements\":[{\"seq\":1,\"id\":\"job-1\",\"runId\":\"" + subject + "\",\"kind\":\"inference\","
                        + "\"status\":\"placed\",\"site\":\"gw-1\",\"at\":\"2026-11-25T10:00:00Z\",\"cause\":\"request\","
                        + "\"decision\":{\"reasons\":[\"placed on gw-1: lowest predicted latency\"]}}]}").getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            return Map.of("continuum.ui.planner-url", "http://127.0.0.1:" + server.getAddress().getPort());
        }

        @Override
        public void stop() {
            server.stop(0);
        }
    }
}
