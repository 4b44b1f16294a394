package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.support.PostgresResource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Flows run flows across engines (issue 32): a parent on engine A names as its ActionUrl a flow published on engine B,
 * a second engine process with a database of its own. A calls B over HTTP like any action provider; the parent
 * SUCCEEDS with the child's output, and B's child run names its parent run and state as A sent them. Both engines run
 * with authentication off, as every durability test does (DurabilityRig): this is about the call, not identity.
 */
class ChildRunAcrossEnginesIT {

    @Test
    void shouldRunAFlowOfAnotherEngineAsAChildAndHandItsOutputToTheParent() {
        try (DurabilityRig rig = DurabilityRig.create("across-engines")) {
            EngineInstance a = rig.startEngine("A");
            EngineInstance b = rig.useDatabase(PostgresResource.connect()).startEngine("B");
            // a Wait, so A sees the child ACTIVE first and must poll B for its finish
            String child = b.api().publishFlow("doubler on B", DurabilityFlow.json("""
                    {"StartAt":"Double","States":{
                      "Double":{"Type":"ExpressionEval","Parameters":{"doubled.=":"n * 2"},"ResultPath":"$.result","Next":"Rest"},
                      "Rest":{"Type":"Wait","Seconds":1,"End":true}}}"""));
            String parent = a.api().publishFlow("parent on A", DurabilityFlow.json("""
                    {"StartAt":"Call","States":{
                      "Call":{"Type":"Action","ActionUrl":"%s/flows/%s/actions","Parameters":{"n.$":"$.n"},
                              "ResultPath":"$.child","End":true}}}""".formatted(b.api().baseUrl(), child)));

            String run = a.api().startRun(parent, EngineApi.JSON.createObjectNode().put("n", 21), "across");
            Duration took = rig.awaitFinished(a.api(), List.of(run), Duration.ofSeconds(60));
            JsonNode parentRun = a.api().run(run);
            String childRun = parentRun.path("details").path("output").path("child").path("action_id").asText();
            JsonNode atB = b.api().run(childRun);
            rig.say("parent %s on A %s in %d ms; child %s on B %s, parent as B knows it: %s / %s", run,
                    parentRun.path("status").asText(), took.toMillis(), childRun, atB.path("status").asText(),
                    atB.path("parent_run_id").asText(), atB.path("parent_state").asText());

            assertThat(parentRun.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(parentRun.path("details").path("output").path("child").path("details").path("result")
                    .path("doubled").asInt()).isEqualTo(42);
            assertThat(atB.path("flow_id").asText()).isEqualTo(child);
            assertThat(atB.path("status").asText()).isEqualTo("SUCCEEDED");
            assertThat(atB.path("parent_run_id").asText()).as("the parent run, on A").isEqualTo(run);
            assertThat(atB.path("parent_state").asText()).isEqualTo("Call");
        }
    }
}
