package dev.continuum.provider.server;

import static dev.continuum.provider.testing.ScriptedProvider.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.testing.RunningServer;
import dev.continuum.provider.testing.ScriptedProvider;
import dev.continuum.provider.testing.TestHttp;
import dev.continuum.provider.testing.TestHttp.Reply;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ActionProviderServerTest {

    private Vertx vertx;
    private ScriptedProvider provider;
    private RunningServer server;
    private String base;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        provider = new ScriptedProvider();
        server = RunningServer.start(vertx, router -> ActionProviderServer.mount(router, "/providers/scripted", provider,
                ProviderServerOptions.of(vertx).withCallerResolver(rc -> {
                    String who = rc.request().getHeader("X-Test-Caller");
                    return who == null ? Caller.ANONYMOUS : Caller.of(who);
                })));
        base = server.url("/providers/scripted");
    }

    @AfterEach
    void stop() {
        server.close();
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    private Reply run(String requestId, String body) {
        return TestHttp.post(base + "/run", "{\"request_id\":\"" + requestId + "\",\"body\":" + body + "}");
    }

    @Test
    void shouldDescribeItselfWithApiVersionScopeAndInputSchema() {
        Reply reply = TestHttp.get(base + "/");

        assertThat(reply.status()).isEqualTo(200);
        assertThat(reply.json().path("api_version").asText()).isEqualTo("1.0");
        assertThat(reply.json().path("title").asText()).isEqualTo("Scripted");
        assertThat(reply.json().path("globus_auth_scope").asText()).isEqualTo("urn:test:scope");
        assertThat(reply.json().path("types").get(0).asText()).isEqualTo("Action");
        assertThat(reply.json().path("input_schema")).isEqualTo(ScriptedProvider.SCHEMA);
        assertThat(reply.json().has("synchronous")).isTrue();
        assertThat(reply.json().path("log_supported").asBoolean()).isTrue();
        assertThat(TestHttp.get(base).status()).isEqualTo(200);
    }

    @Test
    void shouldAnswer202ForANewRequestAnd200WithTheSameActionWhenTheRequestIdRepeats() {
        Reply first = run("r-1", "{\"message\":\"hi\"}");
        Reply again = run("r-1", "{\"message\":\"hi\"}");

        assertThat(first.status()).isEqualTo(202);
        assertThat(first.json().path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(first.json().path("details").path("message").asText()).isEqualTo("hi");
        assertThat(first.json().path("creator_id").asText()).isEqualTo("local:anonymous");
        assertThat(first.json().path("start_time").asText()).endsWith("Z");
        assertThat(first.json().path("completion_time").isTextual()).isTrue();
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("action_id")).isEqualTo(first.json().path("action_id"));
        assertThat(provider.starts.get()).isEqualTo(1);
    }

    @Test
    void shouldStartOnlyOneActionWhenTheSameRequestArrivesConcurrently() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Reply>> replies = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 16; i++) {
                replies.add(pool.submit(() -> run("same", "{\"message\":\"x\",\"mode\":\"later\"}")));
            }
            List<String> ids = new CopyOnWriteArrayList<>();
            for (Future<Reply> f : replies) {
                ids.add(f.get().json().path("action_id").asText());
            }
            assertThat(ids).containsOnly(ids.get(0));
            assertThat(provider.starts.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldRefuseAUsedRequestIdWithADifferentBodyWith409() {
        run("r-2", "{\"message\":\"one\"}");

        Reply reply = run("r-2", "{\"message\":\"two\"}");

        assertThat(reply.status()).isEqualTo(409);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("detail").asText()).contains("r-2");
        assertThat(provider.starts.get()).isEqualTo(1);
    }

    @Test
    void shouldScopeRequestIdsToTheCaller() {
        Reply mine = TestHttp.post(base + "/run", "{\"request_id\":\"shared\",\"body\":{\"message\":\"a\"}}",
                Map.of("X-Test-Caller", "urn:alice"));
        Reply theirs = TestHttp.post(base + "/run", "{\"request_id\":\"shared\",\"body\":{\"message\":\"b\"}}",
                Map.of("X-Test-Caller", "urn:bob"));

        assertThat(mine.status()).isEqualTo(202);
        assertThat(theirs.status()).isEqualTo(202);
        assertThat(theirs.json().path("action_id")).isNotEqualTo(mine.json().path("action_id"));
    }

    @Test
    void shouldAnswer404ProblemForAnUnknownAction() {
        Reply reply = TestHttp.get(base + "/no-such-action/status");

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("status").asInt()).isEqualTo(404);
        assertThat(reply.json().path("title").asText()).isEqualTo("Action not found");
    }

    @Test
    void shouldAnswerProblemNotStackTraceForMalformedJson() {
        Reply reply = TestHttp.post(base + "/run", "{\"request_id\": \"x\", \"body\": {");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.json().path("type").asText()).endsWith("/invalid-request");
        assertThat(reply.json().path("detail").asText()).contains("not valid JSON");
        assertThat(reply.text()).doesNotContain("Exception").doesNotContain("at com.");
    }

    @Test
    void shouldNameTheOffendingFieldWhenTheBodyViolatesTheInputSchema() {
        Reply reply = run("r-3", "{\"message\": 42, \"mode\": \"sideways\"}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("errors")).extracting(e -> e.path("pointer").asText())
                .containsExactlyInAnyOrder("/body/message", "/body/mode");
        assertThat(provider.starts.get()).isZero();
    }

    @Test
    void shouldPointAtAMissingRequiredBodyProperty() {
        Reply reply = run("r-4", "{}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("errors").get(0).path("pointer").asText()).isEqualTo("/body/message");
    }

    @Test
    void shouldPointAtMissingRequestIdAndBody() {
        Reply reply = TestHttp.post(base + "/run", "{\"label\": 5}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("errors")).extracting(e -> e.path("pointer").asText())
                .containsExactlyInAnyOrder("/request_id", "/body", "/label");
    }

    @Test
    void shouldReportAnActionFinishedLaterThroughStatus() {
        Reply started = run("r-5", "{\"message\":\"m\",\"mode\":\"later\"}");
        String id = started.json().path("action_id").asText();
        assertThat(started.json().path("status").asText()).isEqualTo("ACTIVE");
        assertThat(started.json().path("display_status").asText()).isEqualTo("Waiting");

        provider.context(id).complete(json("{\"answer\": 42}"));
        Reply status = TestHttp.get(base + "/" + id + "/status");

        assertThat(status.json().path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(status.json().path("details").path("answer").asInt()).isEqualTo(42);
    }

    @Test
    void shouldCancelARunningActionAndRefuseToCancelAFinishedOne() {
        String id = run("r-6", "{\"message\":\"m\",\"mode\":\"later\"}").json().path("action_id").asText();

        Reply cancelled = TestHttp.post(base + "/" + id + "/cancel", null);
        Reply again = TestHttp.post(base + "/" + id + "/cancel", null);
        provider.context(id).complete(json("{\"late\": true}"));

        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(cancelled.json().path("status").asText()).isEqualTo("FAILED");
        assertThat(cancelled.json().path("display_status").asText()).isEqualTo("Cancelled");
        assertThat(provider.cancels.get()).isEqualTo(1);
        assertThat(again.status()).isEqualTo(409);
        assertThat(TestHttp.get(base + "/" + id + "/status").json().path("status").asText())
                .as("a late completion must not undo the cancel").isEqualTo("FAILED");
    }

    @Test
    void shouldRefuseToReleaseARunningActionAndForgetAReleasedOne() {
        String id = run("r-7", "{\"message\":\"m\",\"mode\":\"later\"}").json().path("action_id").asText();

        Reply whileActive = TestHttp.post(base + "/" + id + "/release", null);
        provider.context(id).complete(json("{}"));
        Reply released = TestHttp.post(base + "/" + id + "/release", null);
        Reply afterwards = TestHttp.get(base + "/" + id + "/status");

        assertThat(whileActive.status()).isEqualTo(409);
        assertThat(released.status()).isEqualTo(200);
        assertThat(released.json().path("status").asText()).isEqualTo("SUCCEEDED");
        assertThat(afterwards.status()).isEqualTo(404);
    }

    @Test
    void shouldServeTheLogInPages() {
        String id = run("r-8", "{\"message\":\"m\",\"mode\":\"later\"}").json().path("action_id").asText();
        provider.context(id).complete(json("{}"));

        Reply first = TestHttp.get(base + "/" + id + "/log?limit=2");
        Reply rest = TestHttp.get(base + "/" + id + "/log?limit=2&marker=" + first.json().path("marker").asText());

        assertThat(first.json().path("entries")).extracting(e -> e.path("code").asText())
                .containsExactly("ActionStarted", "Waiting");
        assertThat(first.json().path("has_next_page").asBoolean()).isTrue();
        assertThat(rest.json().path("entries")).extracting(e -> e.path("code").asText())
                .containsExactly("ActionSucceeded");
        assertThat(rest.json().path("has_next_page").asBoolean()).isFalse();
        assertThat(TestHttp.get(base + "/" + id + "/log?limit=zero").status()).isEqualTo(400);
    }

    @Test
    void shouldPushTheFinalStatusToTheCallbackUrl() {
        List<JsonObject> received = new CopyOnWriteArrayList<>();
        List<Integer> attempts = new CopyOnWriteArrayList<>();
        try (RunningServer engine = RunningServer.start(vertx, router -> router.post("/callback")
                .handler(io.vertx.ext.web.handler.BodyHandler.create()).handler(rc -> {
                    attempts.add(1);
                    if (attempts.size() == 1) { // the first delivery fails: the framework must retry
                        rc.response().setStatusCode(503).end();
                        return;
                    }
                    received.add(rc.body().asJsonObject());
                    rc.response().setStatusCode(204).end();
                }))) {
            Reply started = TestHttp.post(base + "/run", "{\"request_id\":\"cb\",\"body\":{\"message\":\"m\",\"mode\":\"later\"}}",
                    Map.of("X-Continuum-Callback", engine.url("/callback")));
            String id = started.json().path("action_id").asText();

            provider.context(id).complete(json("{\"done\": true}"));

            TestHttp.await(Duration.ofSeconds(10), "callback delivery", () -> !received.isEmpty());
            assertThat(received.get(0).getString("action_id")).isEqualTo(id);
            assertThat(received.get(0).getString("status")).isEqualTo("SUCCEEDED");
            assertThat(received.get(0).getJsonObject("details").getBoolean("done")).isTrue();
            assertThat(attempts).hasSize(2);
        }
    }

    @Test
    void shouldNotPushAFinishThatTheRunAnswerAlreadyCarries() throws Exception {
        List<JsonObject> received = new CopyOnWriteArrayList<>();
        try (RunningServer engine = RunningServer.start(vertx, router -> router.post("/callback")
                .handler(io.vertx.ext.web.handler.BodyHandler.create()).handler(rc -> {
                    received.add(rc.body().asJsonObject());
                    rc.response().setStatusCode(204).end();
                }))) {
            Reply now = TestHttp.post(base + "/run", "{\"request_id\":\"sync\",\"body\":{\"message\":\"m\"}}",
                    Map.of("X-Continuum-Callback", engine.url("/callback")));
            Reply later = TestHttp.post(base + "/run", "{\"request_id\":\"async\",\"body\":{\"message\":\"m\",\"mode\":\"later\"}}",
                    Map.of("X-Continuum-Callback", engine.url("/callback")));
            provider.context(later.json().path("action_id").asText()).complete(json("{}"));

            TestHttp.await(Duration.ofSeconds(10), "callback delivery", () -> !received.isEmpty());
            // a push for the synchronous action would have been sent before the later one: none comes after it either
            Awaitility.await("no second callback").during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(3))
                    .pollInterval(Duration.ofMillis(20)).until(() -> received.size() == 1);
            assertThat(now.json().path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(received).extracting(r -> r.getString("action_id"))
                    .containsExactly(later.json().path("action_id").asText());
        }
    }

    @Test
    void shouldRefuseACallbackHeaderThatIsNotAnHttpUrl() {
        Reply reply = TestHttp.post(base + "/run", "{\"request_id\":\"cb2\",\"body\":{\"message\":\"m\"}}",
                Map.of("X-Continuum-Callback", "file:///etc/passwd"));

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("detail").asText()).contains("X-Continuum-Callback");
    }

    @Test
    void shouldServeTheLegacyActionsPaths() {
        Reply started = TestHttp.post(base + "/actions", "{\"request_id\":\"legacy\",\"body\":{\"message\":\"m\",\"mode\":\"later\"}}");
        String id = started.json().path("action_id").asText();

        Reply status = TestHttp.get(base + "/actions/" + id);
        Reply cancelled = TestHttp.post(base + "/actions/" + id + "/cancel", null);
        Reply log = TestHttp.get(base + "/actions/" + id + "/log");
        Reply released = TestHttp.post(base + "/actions/" + id + "/release", null);

        assertThat(started.status()).isEqualTo(202);
        assertThat(status.json().path("action_id").asText()).isEqualTo(id);
        assertThat(cancelled.json().path("status").asText()).isEqualTo("FAILED");
        assertThat(log.json().path("entries").size()).isGreaterThanOrEqualTo(2);
        assertThat(released.status()).isEqualTo(200);
    }

    @Test
    void shouldReportAProviderCrashAsAFailedActionNotAServerError() {
        Reply reply = run("r-9", "{\"message\":\"m\",\"mode\":\"crash\"}");

        assertThat(reply.status()).isEqualTo(202);
        assertThat(reply.json().path("status").asText()).isEqualTo("FAILED");
        assertThat(reply.json().path("details").path("message").asText()).isEqualTo("boom");
        assertThat(reply.text()).doesNotContain("at dev.continuum");
    }

    @Test
    void shouldHideAnActionFromCallersOutsideItsMonitorAndManageLists() {
        Reply started = TestHttp.post(base + "/run", "{\"request_id\":\"own\",\"body\":{\"message\":\"m\",\"mode\":\"later\"},"
                + "\"monitor_by\":[\"urn:carol\"]}", Map.of("X-Test-Caller", "urn:alice"));
        String id = started.json().path("action_id").asText();

        Reply stranger = TestHttp.get(base + "/" + id + "/status", Map.of("X-Test-Caller", "urn:mallory"));
        Reply monitor = TestHttp.get(base + "/" + id + "/status", Map.of("X-Test-Caller", "urn:carol"));
        Reply monitorCancels = TestHttp.post(base + "/" + id + "/cancel", null, Map.of("X-Test-Caller", "urn:carol"));

        assertThat(stranger.status()).isEqualTo(403);
        assertThat(monitor.status()).isEqualTo(200);
        assertThat(monitorCancels.status()).isEqualTo(403);
    }

    @Test
    void shouldAnswerProblemJsonForUnknownPathsUnderTheProvider() {
        Reply reply = TestHttp.get(base + "/a/b/c/d");

        assertThat(reply.status()).isEqualTo(404);
        assertThat(reply.contentType()).startsWith("application/problem+json");
    }

    @Test
    void shouldRefuseAnInvalidReleaseAfterDuration() {
        Reply reply = TestHttp.post(base + "/run", "{\"request_id\":\"ra\",\"body\":{\"message\":\"m\"},\"release_after\":\"30 days\"}");

        assertThat(reply.status()).isEqualTo(400);
        assertThat(reply.json().path("errors").get(0).path("pointer").asText()).isEqualTo("/release_after");
    }
}
