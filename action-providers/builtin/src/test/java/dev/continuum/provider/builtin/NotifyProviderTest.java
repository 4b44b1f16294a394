package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderException;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.client.CallContext;
import dev.continuum.provider.server.InMemoryActionStore;
import dev.continuum.provider.server.StoredAction;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.handler.BodyHandler;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NotifyProviderTest {

    private final List<JsonObject> received = new CopyOnWriteArrayList<>();
    private final List<String> secrets = new CopyOnWriteArrayList<>();
    private final AtomicInteger flakyCalls = new AtomicInteger();
    private final AtomicInteger goneCalls = new AtomicInteger();

    private BuiltinHarness harness() {
        return new BuiltinHarness(router -> {
            router.post("/hook").handler(BodyHandler.create()).handler(rc -> {
                received.add(rc.body().asJsonObject());
                secrets.add(String.valueOf(rc.request().getHeader("X-Secret")));
                rc.response().setStatusCode(201).end();
            });
            router.post("/flaky").handler(rc -> rc.response().setStatusCode(flakyCalls.incrementAndGet() < 2 ? 503 : 200).end());
            router.post("/gone").handler(rc -> {
                goneCalls.incrementAndGet();
                rc.response().setStatusCode(404).end();
            });
        }, BuiltinOptions.defaults());
    }

    @Test
    void shouldPostThePayloadWithItsHeadersAndSucceedWithTheResponseCode() {
        try (BuiltinHarness h = harness()) {
            ActionStatus started = h.run("notify", "n-1", """
                    {"url": "%s", "payload": {"run": "r-9", "state": "done"}, "headers": {"X-Secret": "s3cr3t"}}"""
                    .formatted(h.url("/hook")));

            ActionStatus done = h.pollUntil("notify", started.actionId(), Duration.ofSeconds(5), s -> s.status().terminal());

            assertThat(done.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(done.details().path("status_code").asInt()).isEqualTo(201);
            assertThat(received).containsExactly(new JsonObject().put("run", "r-9").put("state", "done"));
            assertThat(secrets).containsExactly("s3cr3t");
            List<ActionLogEntry> log = BuiltinHarness.await(h.client.log(h.provider("notify"), started.actionId(), CallContext.anonymous()));
            assertThat(log.toString()).contains("X-Secret").doesNotContain("s3cr3t");
            assertThat(done.toString()).doesNotContain("s3cr3t");
        }
    }

    @Test
    void shouldSendAgainWithItsActionIdADeliveryItsStoreHoldsUnfinishedAndAnswerItsRequestIdWithoutSending() {
        // what an engine killed mid-send leaves in the shared store: the action ACTIVE, whether its POST arrived unknown
        List<String> deliveries = new CopyOnWriteArrayList<>();
        try (BuiltinHarness receiver = new BuiltinHarness(router -> router.post("/hook").handler(rc -> {
            deliveries.add(rc.request().getHeader("X-Continuum-Action-Id"));
            rc.response().setStatusCode(204).end();
        }), BuiltinOptions.defaults())) {
            String body = "{\"url\": \"%s\"}".formatted(receiver.url("/hook"));
            InMemoryActionStore store = new InMemoryActionStore();
            store.insertIfAbsent(new StoredAction(new ActionStatus("left-1", ActionState.ACTIVE, "local:anonymous", null,
                    List.of(), List.of(), Instant.now(), null, "P30D", "Sending", null),
                    ActionRequest.of("n-left", BuiltinHarness.json(body)), null, List.of(), null));
            try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults().withStore("notify", store))) {
                ActionStatus done = h.pollUntil("notify", "left-1", Duration.ofSeconds(10), s -> s.status().terminal());
                ActionStatus repeated = h.run("notify", "n-left", body);

                assertThat(done.status()).isEqualTo(ActionState.SUCCEEDED);
                assertThat(repeated.actionId()).isEqualTo("left-1");
                assertThat(deliveries).containsExactly("left-1");
            }
        }
    }

    @Test
    void shouldRetryAServerErrorAndThenSucceed() {
        try (BuiltinHarness h = harness()) {
            ActionStatus started = h.run("notify", "n-2", "{\"url\": \"%s\", \"retries\": 2}".formatted(h.url("/flaky")));

            ActionStatus done = h.pollUntil("notify", started.actionId(), Duration.ofSeconds(10), s -> s.status().terminal());

            assertThat(done.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(done.details().path("attempts").asInt()).isEqualTo(2);
        }
    }

    @Test
    void shouldFailWithoutRetryingWhenTheReceiverRefuses() {
        try (BuiltinHarness h = harness()) {
            ActionStatus started = h.run("notify", "n-3", "{\"url\": \"%s\"}".formatted(h.url("/gone")));

            ActionStatus done = h.pollUntil("notify", started.actionId(), Duration.ofSeconds(5), s -> s.status().terminal());

            assertThat(done.status()).isEqualTo(ActionState.FAILED);
            assertThat(done.details().path("status_code").asInt()).isEqualTo(404);
            assertThat(goneCalls.get()).isEqualTo(1);
        }
    }

    @Test
    void shouldFailWithAReasonWhenTheReceiverIsUnreachable() throws Exception {
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        try (BuiltinHarness h = harness()) {
            ActionStatus started = h.run("notify", "n-4", "{\"url\": \"http://127.0.0.1:%d/x\", \"retries\": 0}".formatted(closedPort));

            ActionStatus done = h.pollUntil("notify", started.actionId(), Duration.ofSeconds(5), s -> s.status().terminal());

            assertThat(done.status()).isEqualTo(ActionState.FAILED);
            assertThat(done.details().path("reason").asText()).isNotBlank();
        }
    }

    @Test
    void shouldRejectUrlsThatAreNotHttp() {
        try (BuiltinHarness h = harness()) {
            ActionProviderException e = h.runFails("notify", "n-5", "{\"url\": \"file:///etc/passwd\"}");

            assertThat(e.httpStatus()).isEqualTo(400);
            assertThat(e.problem().orElseThrow().errors().get(0).pointer()).isEqualTo("/body/url");
        }
    }
}
