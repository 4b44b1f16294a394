package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Echo, sleep and expression across engines and a SIGKILL, as {@link BuiltinNotifyOnceIT} is for notify (issue 32,
 * ADR 0032). A takeover or a restart repeats the old holder's request_id at the new holder's own in-process provider;
 * every built-in must answer the action already started — the same action id and result, and for sleep the same wake-up
 * time rather than a second full wait — which only a store that every engine shares and that survives a kill can give.
 */
class BuiltinActionsOnceIT {

    private static final Duration SLEEP = Duration.ofSeconds(4);

    @Test
    void shouldAnswerTheSameActionForARepeatedRequestIdAtAnotherEngineAndAfterAKill() {
        try (DurabilityRig rig = DurabilityRig.create("builtins-once")
                .withEngineProperties(Map.of("continuum.providers.builtin-enabled", "true"))) {
            List<EngineInstance> engines = rig.startEngines("A", "B");
            ObjectNode echo = request("echo-once-1");
            echo.putObject("body").put("sample", "s-1");
            ObjectNode expression = request("expression-once-1");
            expression.putObject("body").put("expression", "a * 2").putObject("arguments").put("a", 21);
            ObjectNode sleep = request("sleep-once-1");
            sleep.putObject("body").put("seconds", SLEEP.toSeconds());

            EngineApi first = engines.get(0).api();
            JsonNode echoed = first.runBuiltin("echo", echo);
            JsonNode computed = first.runBuiltin("expression", expression);
            JsonNode sleeping = first.runBuiltin("sleep", sleep);
            Instant wakeAt = Instant.parse(sleeping.path("details").path("wake_at").asText());

            EngineApi other = engines.get(1).api();
            assertSameAction("echo at the other engine", other.runBuiltin("echo", echo), echoed);
            assertSameAction("expression at the other engine", other.runBuiltin("expression", expression), computed);
            assertSameAction("sleep at the other engine", other.runBuiltin("sleep", sleep), sleeping);

            engines.get(0).kill();
            EngineApi restarted = rig.restart(engines.get(0)).api();
            assertSameAction("echo after the kill", restarted.runBuiltin("echo", echo), echoed);
            assertSameAction("expression after the kill", restarted.runBuiltin("expression", expression), computed);
            JsonNode sleepAfterKill = restarted.runBuiltin("sleep", sleep);
            assertSameAction("sleep after the kill", sleepAfterKill, sleeping);
            // still asleep: the same wake-up, not a second full wait; already woken (B adopted it while A restarted):
            // not before it was due
            if (sleepAfterKill.path("status").asText().equals("ACTIVE")) {
                assertThat(sleepAfterKill.path("details").path("wake_at").asText()).as("the sleep's wake-up after the kill")
                        .isEqualTo(wakeAt.toString());
            } else {
                assertThat(sleepAfterKill.path("status").asText()).as("the sleep after the kill").isEqualTo("SUCCEEDED");
                assertThat(Instant.parse(sleepAfterKill.path("completion_time").asText())).as("when the sleep woke")
                        .isAfterOrEqualTo(wakeAt.minusMillis(1));
            }

            // the killed engine's sleep is adopted (by the restarted engine or by B) and wakes when it was due
            String sleepId = sleeping.path("action_id").asText();
            assertThat(rig.awaitCondition("the sleep SUCCEEDED", Duration.ofSeconds(60), () -> restarted
                    .builtinStatus("sleep", sleepId).path("status").asText().equals("SUCCEEDED"))).isTrue();
            rig.say("echo %s, expression %s, sleep %s (due %s): one action each across A, B and A restarted",
                    echoed.path("action_id").asText(), computed.path("action_id").asText(), sleepId, wakeAt);
        }
    }

    private static ObjectNode request(String requestId) {
        return EngineApi.JSON.createObjectNode().put("request_id", requestId);
    }

    private static void assertSameAction(String what, JsonNode answer, JsonNode original) {
        assertThat(answer.path("action_id").asText()).as(what + ": action id")
                .isEqualTo(original.path("action_id").asText());
        assertThat(answer.path("start_time").asText()).as(what + ": start time")
                .isEqualTo(original.path("start_time").asText());
    }
}
