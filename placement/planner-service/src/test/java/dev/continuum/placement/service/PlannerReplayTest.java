package dev.continuum.placement.service;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.placement.core.planner.trace.Replayer;
import dev.continuum.placement.service.support.KeycloakResource;
import dev.continuum.placement.service.support.PlannerTestProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.specification.RequestSpecification;
import java.io.BufferedReader;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Same code online and in simulation: a session through the planner service's REST API (inference beside the data
 * or moved to the pool, training jobs queueing under their partition's quota and starting as others complete,
 * refused requests) is recorded as a planner trace, and the replayer reproduces every decision exactly.
 */
@QuarkusTest
@TestProfile(PlannerTestProfile.class)
class PlannerReplayTest {

    private static RequestSpecification api(String token) {
        return given().auth().oauth2(token).contentType("application/json");
    }

    @Test
    void shouldReplayARecordedSessionOfTheServiceDecisionForDecision() throws Exception {
        String token = KeycloakResource.token("scientist");
        Random random = new Random(13);
        List<String> running = new ArrayList<>();
        int decisions = 0;
        for (int i = 0; i < 240; i++) {
            String id = "replay-" + i;
            String body = switch (i % 6) {
                case 0, 1, 2 -> """
                        {"id": "%s", "kind": "inference", "model": "resnet", "latencySloMillis": %d,
                         "data": [{"endpointId": "ep-gw-1", "sizeBytes": %d}]}"""
                        .formatted(id, 200 + random.nextInt(5000), random.nextInt(20_000_000));
                case 3, 4 -> """
                        {"id": "%s", "kind": "training", "minGpus": %d, "partition": "research", "estimatedSeconds": %d}"""
                        .formatted(id, 1 << random.nextInt(4), 60 + random.nextInt(3600));
                default -> """
                        {"id": "%s", "kind": "training", "minGpus": 99}""".formatted(id);
            };
            var response = api(token).body(body).post("/placements").then().extract();
            if (response.statusCode() == 201) {
                decisions += 1 + response.jsonPath().getList("others").size();
                if ("training".equals(response.jsonPath().getString("kind"))
                        && "placed".equals(response.jsonPath().getString("status"))) {
                    running.add(id);
                }
            } else {
                assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(400);
            }
            if (i % 5 == 4 && !running.isEmpty()) {
                String done = running.remove(random.nextInt(running.size()));
                var freed = api(token).body("{\"computeMillis\": 1000}").post("/placements/" + done + "/completion")
                        .then().statusCode(200).extract().jsonPath();
                decisions += freed.getList("placements").size();
                for (int k = 0; k < freed.getList("placements").size(); k++) {
                    if ("placed".equals(freed.getString("placements[" + k + "].status"))) {
                        running.add(freed.getString("placements[" + k + "].id"));
                    }
                }
            }
        }
        assertThat(decisions).isGreaterThanOrEqualTo(200);

        Replayer.Result replay;
        try (BufferedReader trace = Files.newBufferedReader(PlannerTestProfile.TRACE)) {
            replay = Replayer.replay(trace);
        }
        assertThat(replay.mismatches()).isEmpty();
        assertThat(replay.identical()).isTrue();
        assertThat(replay.decisions()).isGreaterThanOrEqualTo(decisions);
    }
}
