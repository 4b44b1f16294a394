package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kill -9 of the only engine at several points of many runs, then a restart: every run must still
 * finish, each of its states completed once in its log, and each echo action must have taken
 * effect once at the provider (a re-sent call carries the same request_id and is not repeated).
 */
class CrashRecoveryIT {

    private static final int RUNS_PER_BATCH = 10;
    private static final Set<String> ASLEEP = Set.of("ActionStarted Settle", "WaitStarted Cool");

    @Test
    void shouldFinishEveryRunWithOneEffectPerActionWhenTheEngineIsKilledMidFlow() {
        try (DurabilityRig rig = DurabilityRig.create("crash")) {
            DurabilityFlow flow = DurabilityFlow.pipeline(rig.providersUrl(), 2, 2);
            EngineInstance engine = rig.startEngine("solo");
            String flowId = engine.api().publishFlow("crash test", flow.definition());
            List<String> runs = new ArrayList<>();
            Map<String, Integer> activeAtKill = new LinkedHashMap<>();

            runs.addAll(startRuns(engine, flowId, "batch-1"));
            kill(rig, engine, "right after starting runs", activeAtKill);

            // A fresh batch after each restart, so every kill finds work in flight however slow the restart was.
            engine = rig.restart(engine);
            runs.addAll(startRuns(engine, flowId, "batch-2"));
            int effectsBefore = rig.effects().size();
            rig.awaitCondition("new echo effects", Duration.ofSeconds(30), () -> rig.effects().size() >= effectsBefore + 3);
            kill(rig, engine, "as echo effects landed, before their steps could commit", activeAtKill);

            engine = rig.restart(engine);
            List<String> batch3 = startRuns(engine, flowId, "batch-3");
            runs.addAll(batch3);
            EngineApi api = engine.api();
            rig.awaitCondition("runs in sleep or wait", Duration.ofSeconds(30), () -> asleep(api, batch3) >= batch3.size() / 3);
            kill(rig, engine, "while runs sleep (provider action) or wait (engine timer)", activeAtKill);

            engine = rig.restart(engine);
            int effectsAtRestart = rig.effects().size();
            rig.awaitCondition("recovery under way", Duration.ofSeconds(20), () -> rig.effects().size() >= effectsAtRestart + 2);
            kill(rig, engine, "while catching up after a restart", activeAtKill);

            engine = rig.restart(engine);
            Duration rest = rig.awaitFinished(engine.api(), runs, Duration.ofSeconds(120));
            List<String> problems = RunAudit.problems(engine.api(), runs, flow, rig.effects());
            rig.say("all %d runs finished %d ms after the last restart; %d echo effects for %d echo actions; %d problems",
                    runs.size(), rest.toMillis(), rig.effects().size(), runs.size() * flow.echoStates().size(), problems.size());

            assertThat(activeAtKill).as("active runs at each kill (a kill with none would test nothing)")
                    .allSatisfy((when, active) -> assertThat(active).as(when).isPositive());
            assertThat(problems).as("what the runs show after 4 kills").isEmpty();
            assertThat(rig.effects().size()).isEqualTo(runs.size() * flow.echoStates().size());
        }
    }

    private static List<String> startRuns(EngineInstance engine, String flowId, String label) {
        List<String> runs = new ArrayList<>();
        for (int i = 0; i < RUNS_PER_BATCH; i++) {
            ObjectNode input = EngineApi.JSON.createObjectNode().put("sample", label + "-" + i);
            runs.add(engine.api().startRun(flowId, input, label));
        }
        return runs;
    }

    private static void kill(DurabilityRig rig, EngineInstance engine, String when, Map<String, Integer> activeAtKill) {
        engine.kill();
        Map<String, Integer> byStatus = rig.runsByStatus();
        activeAtKill.put("kill " + (activeAtKill.size() + 1) + " " + when, byStatus.getOrDefault("ACTIVE", 0));
        rig.say("kill -9 engine %s %s: runs %s, %d leases left behind, %d echo effects so far", engine.instanceId(), when,
                byStatus, rig.liveLeases().size(), rig.effects().size());
    }

    /** Runs whose latest milestone is the start of the sleep action or of the Wait state. */
    private static long asleep(EngineApi api, List<String> runs) {
        return runs.stream().filter(runId -> {
            List<String> milestones = api.log(runId).stream().map(DurabilityFlow::milestone)
                    .filter(java.util.Objects::nonNull).toList();
            return !milestones.isEmpty() && ASLEEP.contains(milestones.get(milestones.size() - 1));
        }).count();
    }
}
