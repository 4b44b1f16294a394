package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's own notify provider (a webhook: an effect outside the engine) across engines and restarts (ADR 0032).
 * After a takeover the new holder of a run calls notify with the request_id the old holder used, at its own
 * in-process provider; after a SIGKILL the restarted engine does the same at its own. Either way the webhook must be
 * sent once: the request_id has to be found in a store every engine shares and that survives a kill.
 */
class BuiltinNotifyOnceIT {

    @Test
    void shouldSendOneWebhookPerRequestIdAcrossEnginesAndAfterAKill() throws IOException {
        List<String> deliveries = new CopyOnWriteArrayList<>();
        HttpServer receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        receiver.createContext("/hook", exchange -> {
            deliveries.add(exchange.getRequestHeaders().getFirst("X-Continuum-Action-Id"));
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        receiver.start();
        try (DurabilityRig rig = DurabilityRig.create("notify-once")
                .withEngineProperties(Map.of("continuum.providers.builtin-enabled", "true"))) {
            List<EngineInstance> engines = rig.startEngines("A", "B");
            ObjectNode request = EngineApi.JSON.createObjectNode().put("request_id", "notify-once-1");
            request.putObject("body").put("url", "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hook")
                    .putObject("payload").put("sample", "s-1");

            String actionId = engines.get(0).api().runBuiltin("notify", request).path("action_id").asText();
            assertThat(rig.awaitCondition("the webhook", Duration.ofSeconds(60), () -> !deliveries.isEmpty())).isTrue();
            // the send recorded as done before the kill: a kill between the webhook's arrival and that record would
            // rightly resume the send (at least once, ADR 0032), which is not what this test is about
            assertThat(rig.awaitCondition("the notify action SUCCEEDED", Duration.ofSeconds(30), () -> engines.get(0).api()
                    .builtinStatus("notify", actionId).path("status").asText().equals("SUCCEEDED"))).isTrue();

            JsonNode atOtherEngine = engines.get(1).api().runBuiltin("notify", request);
            engines.get(0).kill();
            EngineInstance restarted = rig.restart(engines.get(0));
            JsonNode afterKill = restarted.api().runBuiltin("notify", request);
            DurabilityRig.pause(2000); // a second webhook, were one sent, would be on its way by now
            rig.say("notify %s: other engine answered %s, restarted engine %s; deliveries %s", actionId,
                    atOtherEngine.path("action_id").asText(), afterKill.path("action_id").asText(), deliveries);

            assertThat(atOtherEngine.path("action_id").asText()).as("the other engine's answer to the same request_id")
                    .isEqualTo(actionId);
            assertThat(afterKill.path("action_id").asText()).as("the restarted engine's answer to the same request_id")
                    .isEqualTo(actionId);
            assertThat(deliveries).containsExactly(actionId);
        } finally {
            receiver.stop(0);
        }
    }
}
