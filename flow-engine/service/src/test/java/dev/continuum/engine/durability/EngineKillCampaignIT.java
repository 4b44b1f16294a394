package dev.continuum.engine.durability;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault campaign's first row (issue 18 C, docs/reliability.md): two engines on one database, runs of a
 * three-Action flow started in waves through either, and SIGKILL of a random engine at a random moment after each
 * wave, the engine restarted each time as a supervisor would. Afterwards every run must have SUCCEEDED with a log
 * showing each state once, and each (run, Action state) must have taken effect exactly once at the echo provider,
 * which records one line per new request_id. CI runs a few kills; {@code bench/scripts/fault-campaign.sh} runs the
 * long campaign through the same test with {@code -Dcontinuum.campaign.runs/kills/seed}.
 */
class EngineKillCampaignIT {

    private static final int RUNS = Integer.getInteger("continuum.campaign.runs", 18);
    private static final int KILLS = Integer.getInteger("continuum.campaign.kills", 3);
    private static final long SEED = Long.getLong("continuum.campaign.seed", System.nanoTime());
    /** The latest a kill lands after its wave of runs was started. */
    private static final int MAX_KILL_DELAY_MS = 2500;

    @Test
    void shouldSucceedEveryRunWithOneEffectPerActionWhenRandomEnginesAreKilledAndRestarted() {
        try (DurabilityRig rig = DurabilityRig.create("kill-campaign")) {
            Random random = new Random(SEED);
            DurabilityFlow flow = DurabilityFlow.threeActions(rig.providersUrl(), 1);
            List<EngineInstance> engines = new ArrayList<>(rig.startEngines("A", "B"));
            String flowId = engines.get(0).api().publishFlow("kill campaign", flow.definition());
            rig.say("campaign: %d runs, %d kills, seed %d", RUNS, KILLS, SEED);
            Instant began = Instant.now();

            List<String> runs = new ArrayList<>();
            int killsWithActiveRuns = 0;
            for (int kill = 0; kill < KILLS; kill++) {
                int due = (int) ((long) RUNS * (kill + 1) / KILLS);
                EngineInstance via = engines.get(random.nextInt(engines.size()));
                while (runs.size() < due) {
                    runs.add(via.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "c-" + runs.size()),
                            "wave-" + kill));
                }
                DurabilityRig.pause(random.nextInt(MAX_KILL_DELAY_MS));
                int victim = random.nextInt(engines.size());
                EngineInstance dead = engines.get(victim);
                dead.kill();
                int active = rig.runsByStatus().getOrDefault("ACTIVE", 0);
                killsWithActiveRuns += active > 0 ? 1 : 0;
                rig.say("kill %d/%d: SIGKILL engine %s with %d runs active, %d/%d echo effects so far", kill + 1, KILLS,
                        dead.instanceId(), active, rig.effects().size(), runs.size() * flow.echoStates().size());
                engines.set(victim, rig.restart(dead));
            }
            while (runs.size() < RUNS) {
                runs.add(engines.get(0).api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "c-" + runs.size()),
                        "tail"));
            }

            Duration rest = rig.awaitFinished(engines.get(0).api(), runs, Duration.ofSeconds(300));
            List<String> problems = RunAudit.problems(engines.get(0).api(), runs, flow, rig.effects());
            long succeeded = runs.stream().filter(id -> engines.get(0).api().status(id).equals("SUCCEEDED")).count();
            int expectedEffects = runs.size() * flow.echoStates().size();
            rig.say("all runs finished %d ms after the last restart; %d problems%s", rest.toMillis(), problems.size(),
                    problems.isEmpty() ? "" : ", e.g. " + problems.subList(0, Math.min(5, problems.size())));
            // one line the campaign script reads into docs/reliability.md
            System.out.printf("CAMPAIGN engine-kills runs=%d kills=%d kills_with_active_runs=%d seed=%d succeeded=%d"
                            + " effects=%d expected_effects=%d problems=%d wall_s=%d%n", runs.size(), KILLS, killsWithActiveRuns,
                    SEED, succeeded, rig.effects().size(), expectedEffects, problems.size(),
                    Duration.between(began, Instant.now()).toSeconds());

            assertThat(problems).as("runs after %d random kills (seed %d)", KILLS, SEED).isEmpty();
            assertThat(rig.effects().size()).isEqualTo(expectedEffects);
            assertThat(killsWithActiveRuns).as("kills that found runs in flight (one with none tests nothing)").isPositive();
        }
    }
}
