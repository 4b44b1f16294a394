package dev.continuum.engine.durability;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fault campaign's first row (issue 18 C, docs/reliability.md): two engines on one database, runs of a
 * three-Action flow started in waves through either, and SIGKILL of a random serving engine at a random moment,
 * the killed engine restarted at once as a supervisor would. The campaign does not wait for that restart: the other
 * engine works on meanwhile and the next kill hits whichever engine serves (both may be down for a while, then the
 * next kill waits for one to come up). Afterwards every run must have SUCCEEDED with a log showing each state once,
 * and each (run, Action state) must have taken effect exactly once at the echo provider, which records one line per
 * new request_id. CI runs a few kills; {@code bench/scripts/fault-campaign.sh} runs the long campaign through the
 * same test with {@code -Dcontinuum.campaign.runs/kills/seed/minutes}.
 */
class EngineKillCampaignIT {

    private static final int RUNS = Integer.getInteger("continuum.campaign.runs", 18);
    private static final int KILLS = Integer.getInteger("continuum.campaign.kills", 3);
    private static final long SEED = Long.getLong("continuum.campaign.seed", System.nanoTime());
    /** A time budget for the kills (0: none): when it is spent the campaign stops killing and checks what it has. */
    private static final int MINUTES = Integer.getInteger("continuum.campaign.minutes", 0);
    /** The longest pause before a kill (a random part of it each time), so kills land at random points of the runs. */
    private static final int MAX_KILL_DELAY_MS = 2500;

    @Test
    void shouldSucceedEveryRunWithOneEffectPerActionWhenRandomEnginesAreKilledAndRestarted() {
        try (DurabilityRig rig = DurabilityRig.create("kill-campaign").withStartCache()) {
            Random random = new Random(SEED);
            DurabilityFlow flow = DurabilityFlow.threeActions(rig.providersUrl(), 1);
            List<EngineInstance> engines = new ArrayList<>(rig.startEngines("A", "B"));
            String flowId = engines.get(0).api().publishFlow("kill campaign", flow.definition());
            rig.say("campaign: %d runs, %d kills, %s, seed %d", RUNS, KILLS,
                    MINUTES > 0 ? "at most " + MINUTES + " minutes of kills" : "no time budget", SEED);
            Instant began = Instant.now();
            Optional<Instant> budgetEnds = MINUTES > 0 ? Optional.of(began.plus(Duration.ofMinutes(MINUTES))) : Optional.empty();

            List<String> runs = new ArrayList<>();
            int kills = 0;
            int killsWithActiveRuns = 0;
            while (kills < KILLS && budgetEnds.map(Instant.now()::isBefore).orElse(true)) {
                // Runs start in waves spread over the kills, or over the time budget when that runs out first, so every
                // wave meets kills; they go through an engine that serves (one is always back within a start).
                int due = (int) Math.min(RUNS, Math.ceil(RUNS * Math.max((kills + 1.0) / KILLS, budgetFraction(began, budgetEnds))));
                if (runs.size() < due) {
                    EngineInstance via = serving(rig, engines, random);
                    while (runs.size() < due) {
                        runs.add(via.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "c-" + runs.size()),
                                "wave-" + kills));
                    }
                }
                DurabilityRig.pause(random.nextInt(MAX_KILL_DELAY_MS));
                List<Integer> live = IntStream.range(0, engines.size()).filter(i -> engines.get(i).isReady()).boxed().toList();
                if (live.isEmpty()) {
                    continue; // both are starting: the next kill must hit an engine that serves, so wait for one
                }
                int victim = live.get(random.nextInt(live.size()));
                EngineInstance dead = engines.get(victim);
                dead.kill();
                kills++;
                int active = rig.runsByStatus().getOrDefault("ACTIVE", 0);
                killsWithActiveRuns += active > 0 ? 1 : 0;
                rig.say("kill %d/%d: SIGKILL engine %s with %d runs active, %d/%d runs started; restarting it", kills, KILLS,
                        dead.instanceId(), active, runs.size(), RUNS);
                engines.set(victim, rig.relaunch(dead));
            }
            Duration killing = Duration.between(began, Instant.now());
            engines.forEach(rig::awaitUp);
            while (runs.size() < RUNS) {
                runs.add(engines.get(0).api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "c-" + runs.size()),
                        "tail"));
            }

            Duration rest = rig.awaitFinished(engines.get(0).api(), runs, Duration.ofSeconds(600));
            List<String> problems = RunAudit.problems(engines.get(0).api(), runs, flow, rig.effects());
            long succeeded = runs.stream().filter(id -> engines.get(0).api().status(id).equals("SUCCEEDED")).count();
            int expectedEffects = runs.size() * flow.echoStates().size();
            double killsPerMinute = kills * 60_000.0 / Math.max(1, killing.toMillis());
            rig.say("%d kills in %d s (%.1f a minute, %s); all runs finished %d ms after both engines served again; %d problems%s",
                    kills, killing.toSeconds(), killsPerMinute, kills < KILLS ? "time budget spent" : "all kills done",
                    rest.toMillis(), problems.size(), problems.isEmpty() ? "" : ", e.g. " + problems.subList(0, Math.min(5, problems.size())));
            // one line the campaign script reads into docs/reliability.md
            System.out.printf("CAMPAIGN engine-kills runs=%d kills=%d planned_kills=%d kills_with_active_runs=%d seed=%d"
                            + " succeeded=%d effects=%d expected_effects=%d problems=%d kill_s=%d kills_per_min=%.1f wall_s=%d%n",
                    runs.size(), kills, KILLS, killsWithActiveRuns, SEED, succeeded, rig.effects().size(), expectedEffects,
                    problems.size(), killing.toSeconds(), killsPerMinute, Duration.between(began, Instant.now()).toSeconds());

            assertThat(problems).as("runs after %d random kills (seed %d)", kills, SEED).isEmpty();
            assertThat(rig.effects().size()).isEqualTo(expectedEffects);
            assertThat(killsWithActiveRuns).as("kills that found runs in flight (one with none tests nothing)").isPositive();
        }
    }

    /** How much of the time budget is spent (0 without one). */
    private static double budgetFraction(Instant began, Optional<Instant> budgetEnds) {
        return budgetEnds.map(end -> (double) Duration.between(began, Instant.now()).toMillis()
                / Math.max(1, Duration.between(began, end).toMillis())).orElse(0.0);
    }

    /** A random engine that serves now, waiting for one to come up when both are starting. */
    private static EngineInstance serving(DurabilityRig rig, List<EngineInstance> engines, Random random) {
        EngineInstance candidate = engines.get(random.nextInt(engines.size()));
        if (candidate.isReady()) {
            return candidate;
        }
        EngineInstance other = engines.get(1 - engines.indexOf(candidate));
        if (other.isReady()) {
            return other;
        }
        rig.awaitUp(candidate);
        return candidate;
    }
}
