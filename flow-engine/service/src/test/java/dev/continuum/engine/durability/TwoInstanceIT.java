package dev.continuum.engine.durability;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two engines on one database share runs through leases; when one is killed the other takes over
 * its runs, and no step runs twice: each state completes once per run, each echo takes effect once.
 */
class TwoInstanceIT {

    @Test
    void shouldRunEveryStepOnceWhenTwoInstancesShareRunsAndOneIsKilled() {
        try (DurabilityRig rig = DurabilityRig.create("two-instances")) {
            DurabilityFlow flow = DurabilityFlow.pipeline(rig.providersUrl(), 2, 2);
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String flowId = a.api().publishFlow("two instances", flow.definition());

            List<String> runs = startRunsThroughBoth(a, b, flowId, 40);
            int expectedEffects = runs.size() * flow.echoStates().size();
            rig.say("started %d runs through A and B; %d/%d echo effects so far", runs.size(), rig.effects().size(),
                    expectedEffects);
            rig.awaitCondition("a third of the echo effects", Duration.ofSeconds(60),
                    () -> rig.effects().size() >= expectedEffects / 3);
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

    @Test
    void shouldNotRepeatAStepWhenAnInstanceLosesItsLeaseDuringASlowCall() {
        try (DurabilityRig rig = DurabilityRig.create("slow-call");
             SlowEchoProvider slow = new SlowEchoProvider(Duration.ofSeconds(12))) {
            DurabilityFlow flow = DurabilityFlow.fork(rig.providersUrl(), slow.url());
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String flowId = a.api().publishFlow("slow call", flow.definition());

            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                runs.add(a.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "slow-" + i), "on-A"));
            }
            Duration took = rig.awaitFinished(b.api(), runs, Duration.ofSeconds(90));
            List<String> problems = new ArrayList<>(RunAudit.problems(b.api(), runs, flow, rig.effects()));
            slow.effectsByRequestId().forEach((requestId, count) -> {
                if (count != 1) {
                    problems.add("slow request " + requestId + " took effect " + count + " times");
                }
            });
            rig.say("%d runs finished in %d ms; %d turns found their lease taken over; slow effects %s; %d problems",
                    runs.size(), took.toMillis(), rig.engineLogLines("was taken over"), slow.effectsByRequestId().values(),
                    problems.size());

            assertThat(problems).as("runs whose slow call outlived the lease of the instance that made it").isEmpty();
            assertThat(slow.effectsByRequestId()).hasSize(runs.size());
        }
    }

    @Test
    void shouldTakeEffectOnceWhenASlowTurnsCallReachesTheProviderAfterTheNewHolderReleasedTheAction() {
        try (DurabilityRig rig = DurabilityRig.create("late-call");
             LateFirstCallProxy proxy = new LateFirstCallProxy(rig.providersUrl(), Duration.ofSeconds(8))) {
            DurabilityFlow flow = DurabilityFlow.threeActions(proxy.url(), 1);
            List<EngineInstance> engines = rig.startEngines("A", "B");
            EngineInstance a = engines.get(0);
            EngineInstance b = engines.get(1);
            String flowId = a.api().publishFlow("late call", flow.definition());

            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                runs.add(a.api().startRun(flowId, EngineApi.JSON.createObjectNode().put("sample", "late-" + i), "on-A"));
            }
            Duration took = rig.awaitFinished(b.api(), runs, Duration.ofSeconds(180));
            rig.awaitCondition("every held call passed on", Duration.ofSeconds(30), () -> proxy.heldPassed() == proxy.held());
            List<String> problems = RunAudit.problems(b.api(), runs, flow, rig.effects());
            rig.say("%d runs finished in %d ms; %d first calls held %s, %d of them reached the provider after their action"
                            + " was released; %d turns found their run taken over; %d echo effects; %d problems", runs.size(),
                    took.toMillis(), proxy.held(), "8 s", proxy.lateAfterRelease(), rig.engineLogLines("was taken over"),
                    rig.effects().size(), problems.size());

            assertThat(proxy.lateAfterRelease()).as("late calls that came after the release (the precondition)").isPositive();
            assertThat(problems).as("runs whose calls reached the provider after the new holder released the action").isEmpty();
            assertThat(rig.effects().size()).isEqualTo(runs.size() * flow.echoStates().size());
        }
    }

    /** Half the runs through each instance, from several clients at once, as a busy facility would. */
    private static List<String> startRunsThroughBoth(EngineInstance a, EngineInstance b, String flowId, int count) {
        ExecutorService clients = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> started = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                EngineInstance via = i % 2 == 0 ? a : b;
                ObjectNode input = EngineApi.JSON.createObjectNode().put("sample", "s-" + i);
                started.add(clients.submit(() -> via.api().startRun(flowId, input, "via-" + via.instanceId())));
            }
            List<String> runs = new ArrayList<>();
            for (Future<String> run : started) {
                runs.add(run.get(60, TimeUnit.SECONDS));
            }
            return runs;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new AssertionError("starting runs failed: " + e.getMessage(), e);
        } finally {
            clients.shutdownNow();
        }
    }
}
