package dev.continuum.engine.ui;

import com.sun.net.httpserver.HttpServer;
import dev.continuum.engine.support.AuthOn;
import dev.continuum.engine.support.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static dev.continuum.engine.support.Tokens.as;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * The engine's relay of the planner's read endpoints ({@code /ops/planner/...}) with the real engine and Keycloak.
 * The planner, the relay's neighbour, is a stand-in HTTP server here that records what reached it; the planner's
 * own inventory endpoint is tested against real gateways in placement/planner-service (GatewayFeedTest).
 */
@QuarkusTest
@TestProfile(PlannerRelayTest.WithPlanner.class)
class PlannerRelayTest {

    public static class WithPlanner extends AuthOn {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("continuum.ui.planner-url", "http://127.0.0.1:" + standInPlanner() + "/");
            return config;
        }
    }

    /**
     * Answers /inventory with a document and anything else with a 400 problem (as the planner's validation does),
     * each echoing what reached it (the profile and the test live in different class loaders: no shared state).
     * Started once per JVM.
     */
    static synchronized int standInPlanner() {
        String port = System.getProperty("ui-test.planner-stand-in");
        if (port != null) {
            return Integer.parseInt(port);
        }
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                String seen = "\"seen\":\"" + exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                        + exchange.getRequestHeaders().getFirst("Authorization") + "\"";
                boolean inventory = exchange.getRequestURI().getPath().equals("/inventory");
                byte[] body = (inventory ? "{\"version\":3,\"sites\":[{\"name\":\"gw-1\",\"online\":true}]," + seen + "}"
                        : "{\"title\":\"Invalid request\",\"errors\":[{\"pointer\":\"/limit\"}]," + seen + "}")
                        .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(inventory ? 200 : 400, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
            System.setProperty("ui-test.planner-stand-in", String.valueOf(server.getAddress().getPort()));
            return server.getAddress().getPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void shouldPassThePlannersInventoryOnWithTheUsersOwnToken() {
        String token = Tokens.of("scientist");
        as(token).when().get("/ops/planner/inventory").then().statusCode(200)
                .body("version", equalTo(3)).body("sites[0].name", equalTo("gw-1"))
                .body("seen", equalTo("GET /inventory Bearer " + token));
    }

    @Test
    void shouldPassOnlyTheLogsFiltersAndThePlannersOwnRefusal() {
        String token = Tokens.of("scientist");
        as(token).queryParam("kind", "training").queryParam("limit", "0").queryParam("evil", "1").queryParam("site", "a&b")
                .when().get("/ops/planner/placements").then().statusCode(400)
                .body("errors[0].pointer", equalTo("/limit"))
                .body("seen", equalTo("GET /placements?kind=training&site=a%26b&limit=0 Bearer " + token));
    }

    @Test
    void shouldRefuseACallerWithoutAToken() {
        given().when().get("/ops/planner/inventory").then().statusCode(401);
    }
}
