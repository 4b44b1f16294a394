package dev.continuum.cli;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

class TriggerCommandsTest {

    private static final String ID = "0b6f4f5e-1f0a-4d1e-9a65-3f1c2f7e9a01";
    private static final String TRIGGER = """
            {"id":"%s","title":"tiffs","status":"active","source":{"type":"webhook"},"flow_id":"f-1",
             "filter":"suffix == '.tif'","consecutive_failures":0,
             "webhook":{"path":"/triggers/%s/webhook","secret_id":"s-1","secret":"whsec_abc"}}""".formatted(ID, ID);

    private FakeEngine engine;

    @BeforeEach
    void startEngine() throws IOException {
        engine = new FakeEngine();
    }

    @AfterEach
    void stopEngine() {
        engine.close();
    }

    @Test
    void shouldCreateATriggerFromJsonAndShowItsWebhookSecretOnce() {
        engine.on("POST", "/triggers", 201, TRIGGER);

        Cli.Result result = Cli.run("--api", engine.api(), "trigger", "create",
                "{\"title\":\"tiffs\",\"source\":{\"type\":\"webhook\"},\"flow_id\":\"f-1\"}");

        assertThat(result.exitCode()).isZero();
        assertThat(result.out()).startsWith(ID).contains("secret whsec_abc");
        assertThat(engine.only("POST", "/triggers").json().at("/source/type").asText()).isEqualTo("webhook");
    }

    @Test
    void shouldListShowPauseResumeAndDeleteWithJsonOutputOnRequest() throws IOException {
        engine.on("GET", "/triggers", 200, "{\"triggers\":[" + TRIGGER + "]}");
        engine.on("POST", "/triggers/" + ID + "/pause", 200, TRIGGER.replace("\"active\"", "\"paused\""));
        engine.on("DELETE", "/triggers/" + ID, 204, "");

        assertThat(Cli.run("--api", engine.api(), "trigger", "list").out()).contains(ID + "  active  webhook  f-1  tiffs");
        JsonNode listed = FakeEngine.JSON.readTree(Cli.run("--api", engine.api(), "trigger", "list", "--output", "json").out());
        assertThat(listed.at("/triggers/0/id").asText()).isEqualTo(ID);
        assertThat(Cli.run("--api", engine.api(), "trigger", "pause", ID).out()).contains("paused");
        assertThat(Cli.run("--api", engine.api(), "trigger", "delete", ID).out()).contains("deleted " + ID);
        assertThat(Cli.run("--api", engine.api(), "trigger", "list", "--output", "yaml").exitCode()).isEqualTo(2);
    }

    @Test
    void shouldTestFireWithASampleEventAndListEventsWithTheirOutcomes() {
        engine.on("POST", "/triggers/" + ID + "/test", 200, "{\"outcome\":\"dry_run\",\"input\":{\"path\":\"/a.tif\"}}");
        engine.on("GET", "/triggers/" + ID + "/events", 200, """
                {"events":[{"id":2,"dedup_key":"webhook:d-2","outcome":"rejected","reason":"the trigger is paused",
                            "received_at":"2026-11-25T12:00:00Z"},
                           {"id":1,"dedup_key":"webhook:d-1","outcome":"started","run_id":"r-1","received_at":"2026-11-25T11:00:00Z"}]}""");

        Cli.Result tested = Cli.run("--api", engine.api(), "trigger", "test", ID, "--event", "{\"path\":\"/a.tif\"}", "--dry-run");
        Cli.Result events = Cli.run("--api", engine.api(), "trigger", "events", ID);

        assertThat(tested.out().strip()).isEqualTo("dry_run input {\"path\":\"/a.tif\"}");
        JsonNode sent = engine.only("POST", "/triggers/" + ID + "/test").json();
        assertThat(sent.path("dry_run").asBoolean()).isTrue();
        assertThat(events.out()).contains("webhook:d-2  rejected: the trigger is paused").contains("webhook:d-1  started run r-1");
    }

    @Test
    void shouldReportTheEnginesRefusalNamingTheField() {
        engine.on("POST", "/triggers", 400, """
                {"title":"Invalid trigger","status":400,"detail":"/source/cron: not a 5-field Unix cron expression",
                 "errors":[{"pointer":"/source/cron","message":"not a 5-field Unix cron expression"}]}""");

        Cli.Result result = Cli.run("--api", engine.api(), "trigger", "create", "{\"title\":\"t\"}");

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.err()).contains("/source/cron");
    }
}
