package dev.continuum.engine.events;

import dev.continuum.engine.app.RunChanged;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Run state changes are published on the SmallRye channel run-events once committed, and the web UI's live views
 * consume it: with the fallback look set to an hour, a change still reaches an open stream at once.
 */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@TestProfile(RunEventStreamTest.HourlyLooks.class)
class RunEventStreamTest {

    /** The live views' fallback look every hour: anything a test sees sooner came through the run-event stream. */
    public static class HourlyLooks implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("continuum.ui.live-interval", "1h");
        }
    }

    static final String ECHO_THEN_NAP = """
            {"StartAt":"Echo","States":{
              "Echo":{"Type":"Action","ActionUrl":"https://actions.globus.org/hello_world","Parameters":{"echo_string":"hi"},
                      "ResultPath":"$.echo","Next":"Nap"},
              "Nap":{"Type":"Wait","Seconds":1,"Next":"Done"},
              "Done":{"Type":"Pass","End":true}}}""";
    static final String WAIT_AN_HOUR = """
            {"StartAt":"Nap","States":{"Nap":{"Type":"Wait","Seconds":3600,"End":true}}}""";

    @Inject
    RunEventsRecorder recorder;

    @TestHTTPResource("/")
    URL base;

    final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldPublishARunsChangesOnTheChannelInTheOrderTheyWereCommitted() {
        String run = Flows.start(Flows.publish(ECHO_THEN_NAP), "{}");
        assertThat(Flows.awaitStatus(run, Duration.ofSeconds(60), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");

        List<RunChanged> changes = awaitChanges(run, "SUCCEEDED");
        assertThat(changes.getFirst().previousStatus()).as("the start comes first").isNull();
        assertThat(changes.getFirst().status()).isEqualTo("ACTIVE");
        assertThat(changes.getLast().status()).isEqualTo("SUCCEEDED");
        assertThat(changes.size()).as("start, the action's turns, the wait, the end").isGreaterThanOrEqualTo(3);
        for (int i = 1; i < changes.size(); i++) {
            assertThat(changes.get(i).previousStatus()).as("change %d follows change %d", i, i - 1)
                    .isEqualTo(changes.get(i - 1).status());
            assertThat(changes.get(i).at()).isAfterOrEqualTo(changes.get(i - 1).at());
        }
        assertThat(changes).allSatisfy(change -> assertThat(change.flowVersion()).isEqualTo(1));
        assertThat(changes.stream().filter(RunChanged::statusChanged).map(RunChanged::status))
                .containsExactly("ACTIVE", "SUCCEEDED");
    }

    @Test
    void shouldSendARunsChangeToItsLiveStreamWithoutWaitingForTheInterval() throws Exception {
        String run = Flows.start(Flows.publish(WAIT_AN_HOUR), "{}");
        try (BufferedReader stream = open("live/runs/" + run)) {
            assertThat(nextData(stream)).contains("\"status\":\"ACTIVE\"");
            given().contentType(ContentType.JSON).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
            // an ACTIVE run is sent on every look (its log grows under the same document), so a look the start's own
            // commits caused may come first; with the interval at an hour, the end arriving at all means it came at once
            String data = nextData(stream);
            for (int more = 0; more < 5 && !data.contains("\"status\":\"ENDED\""); more++) {
                assertThat(data).contains("\"status\":\"ACTIVE\"");
                data = nextData(stream);
            }
            assertThat(data).contains(run).contains("\"status\":\"ENDED\"");
        }
    }

    @Test
    void shouldSendTheListAgainWhenANewRunMatchesItsFilter() throws Exception {
        String label = "stream-" + UUID.randomUUID();
        String flow = Flows.publish(WAIT_AN_HOUR);
        try (BufferedReader stream = open("live/runs?filter_label=" + label)) {
            assertThat(nextData(stream)).doesNotContain("\"run_id\"");
            String run = given().contentType(ContentType.JSON).body("{\"body\":{},\"label\":\"" + label + "\"}")
                    .when().post("/flows/" + flow + "/run").then().statusCode(201).extract().path("run_id");
            assertThat(nextData(stream)).contains(run);
            given().contentType(ContentType.JSON).body("{}").when().post("/runs/" + run + "/cancel").then().statusCode(200);
        }
    }

    private List<RunChanged> awaitChanges(String run, String lastStatus) {
        return await("a " + lastStatus + " change of run " + run + " on the channel").atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> recorder.of(run), changes -> !changes.isEmpty() && changes.getLast().status().equals(lastStatus));
    }

    private BufferedReader open(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).header("Accept", "text/event-stream").build();
        HttpResponse<java.io.InputStream> response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        return new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8));
    }

    /** The next event's data; bounded (a minute) so a stream that never sends fails the test instead of hanging it. */
    private static String nextData(BufferedReader events) throws Exception {
        return CompletableFuture.supplyAsync(() -> {
            try {
                String line;
                while ((line = events.readLine()) != null) {
                    if (line.startsWith("data:")) {
                        return line.substring(5);
                    }
                }
                throw new AssertionError("the stream ended without an event");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).get(60, TimeUnit.SECONDS);
    }
}
