package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two engines on one database share runs through leases; when one is killed the other takes over
 * its runs, and no step runs twice: each state completes once per run, each echo takes effect once.
 */
class TwoInstanceIT {

    @Test
    void shouldRunEveryStepOnceWhenTwoInstancesShareRunsAndOneIsKilled() {
        try (DurabilityRig rig = DurabilityRig.create("two-instances")) {
            DurabilityFlow flow = DurabilityFlow.pipeline(rig.providersUrl(), 1, 1);
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String flowId = a.api().publishFlow("two instances", flow.definition());

            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                EngineInstance via = i % 2 == 0 ? a : b;
                ObjectNode input = EngineApi.JSON.createObjectNode().put("sample", "s-" + i);
                runs.add(via.api().startRun(flowId, input, "via-" + via.instanceId()));
            }
            int expectedEffects = runs.size() * flow.echoStates().size();
            rig.awaitCondition("a quarter of the echo effects", Duration.ofSeconds(60),
                    () -> rig.effects().size() >= expectedEffects / 4);
            double byA = a.api().transitionsCommitted();
            a.kill();
            long leasedByA = rig.liveLeases().values().stream().filter("A"::equals).count();
            rig.say("kill -9 engine A after it committed %.0f transitions: runs %s, %d still leased by A, %d/%d echo effects",
                    byA, rig.runsByStatus(), leasedByA, rig.effects().size(), expectedEffects);

            Duration rest = rig.awaitFinished(b.api(), runs, Duration.ofSeconds(120));
            double byB = b.api().transitionsCommitted();
            List<String> problems = RunAudit.problems(b.api(), runs, flow, rig.effects());
            rig.say("B finished the rest in %d ms; transitions committed: A %.0f, B %.0f; %d echo effects; %d problems",
                    rest.toMillis(), byA, byB, rig.effects().size(), problems.size());

            assertThat(problems).as("what the runs show after A was killed").isEmpty();
            assertThat(rig.effects().size()).isEqualTo(expectedEffects);
            assertThat(byA).as("transitions committed by A before it died").isPositive();
            assertThat(byB).as("transitions committed by B").isPositive();
        }
    }

    @Test
    void shouldTakeOverRunsLeasedByAnInstanceThatWasKilled() {
        try (DurabilityRig rig = DurabilityRig.create("takeover")) {
            DurabilityFlow flow = DurabilityFlow.pipeline(rig.providersUrl(), 1, 1);
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String flowId = a.api().publishFlow("takeover", flow.definition());

            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                runs.add(a.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "t-" + i), "on-A"));
            }
            a.kill();
            Instant killedAt = Instant.now();
            Map<String, String> leases = rig.liveLeases();
            List<String> leasedByA = runs.stream().filter(id -> "A".equals(leases.get(id))).toList();
            rig.say("kill -9 engine A right after it started %d runs: %d of them still leased by A", runs.size(), leasedByA.size());
            assertThat(leasedByA).as("runs A held leases on when it died (the precondition of a takeover)").isNotEmpty();

            rig.awaitFinished(b.api(), leasedByA, Duration.ofSeconds(60));
            rig.say("B finished A's leased runs %d ms after the kill (lease %s)",
                    Duration.between(killedAt, Instant.now()).toMillis(), DurabilityRig.LEASE);
            rig.awaitFinished(b.api(), runs, Duration.ofSeconds(60));
            List<String> problems = RunAudit.problems(b.api(), runs, flow, rig.effects());
            rig.say("all %d runs started on A finished through B; %d problems", runs.size(), problems.size());

            assertThat(problems).as("runs started on A and finished by B").isEmpty();
            assertThat(rig.effects().size()).isEqualTo(runs.size() * flow.echoStates().size());
        }
    }
}
