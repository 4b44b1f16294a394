package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault campaign's provider row (issue 18 C, docs/reliability.md): a provider that answers 500, garbage, nothing
 * at all, or fails twice before it works. Each run's Action declares {@code Retry} on {@code ActionUnableToRun}
 * with two retries: the engine tries exactly three request_ids, then the run FAILS naming the error (or, for the
 * provider that recovers, SUCCEEDS with its answer) — and every run's document and log stay readable and whole.
 */
class MisbehavingProviderIT {

    private static final int RETRIES = 2;

    @Test
    void shouldRetryAsDeclaredAndEndEachRunWithANamedErrorWhenAProviderMisbehaves() {
        try (DurabilityRig rig = DurabilityRig.create("misbehaving").withEngineProperties(Map.of(
                // one try per call (no transport retries under the declared ones) and a short read timeout for /silent
                "continuum.runs.transport-attempts", "1", "continuum.runs.provider-read-timeout", "2s"));
             MisbehavingProvider provider = new MisbehavingProvider()) {
            EngineInstance engine = rig.startEngine("solo");
            Map<String, String> runs = new LinkedHashMap<>();
            for (String behaviour : List.of("broken", "garbage", "silent", "flaky")) {
                String flowId = engine.api().publishFlow("misbehaving " + behaviour, flow(provider.url(behaviour)));
                runs.put(behaviour, engine.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", behaviour),
                        behaviour));
            }
            rig.awaitFinished(engine.api(), runs.values(), Duration.ofSeconds(120));

            Map<String, String> outcomes = new LinkedHashMap<>();
            runs.forEach((behaviour, runId) -> {
                JsonNode run = engine.api().run(runId);
                long retried = engine.api().log(runId).stream().filter(l -> l.code().equals("ActionRetrying")).count();
                outcomes.put(behaviour, run.path("status").asText() + " retries=" + retried + " " + run.path("details"));
            });
            rig.say("outcomes %s; distinct request_ids per provider %s", outcomes, provider.distinctRequestIds());
            System.out.printf("CAMPAIGN misbehaving-provider %s requests=%s%n", outcomes.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue().split(" ")[0]).toList(), provider.distinctRequestIds());

            for (String behaviour : List.of("broken", "garbage", "silent")) {
                JsonNode run = engine.api().run(runs.get(behaviour));
                assertThat(run.path("status").asText()).as(behaviour).isEqualTo("FAILED");
                assertThat(run.path("details").toString()).as(behaviour + ": the error is named").contains("ActionUnableToRun");
                assertThat(outcomes.get(behaviour)).as(behaviour).contains("retries=" + RETRIES);
                assertThat(provider.distinctRequestIds().get(behaviour)).as(behaviour + ": tries, one request_id each")
                        .isEqualTo(1 + RETRIES);
            }
            JsonNode flaky = engine.api().run(runs.get("flaky"));
            assertThat(flaky.path("status").asText()).as(flaky.toString()).isEqualTo("SUCCEEDED");
            assertThat(flaky.at("/details/output/answer/details/sample").asText()).as(flaky.toString()).isEqualTo("flaky");
            assertThat(provider.distinctRequestIds().get("flaky")).isEqualTo(1 + RETRIES);
        }
    }

    private static JsonNode flow(String actionUrl) {
        try {
            return EngineApi.JSON.readTree("""
                    {"StartAt":"Call","States":{
                      "Call":{"Type":"Action","ActionUrl":"%s","Parameters":{"sample.$":"$.sample"},"ResultPath":"$.answer",
                              "Retry":[{"ErrorEquals":["ActionUnableToRun"],"IntervalSeconds":1,"MaxAttempts":%d,"BackoffRate":1}],
                              "End":true}}}""".formatted(actionUrl, RETRIES));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
