package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.config.SelfUrl;
import dev.continuum.engine.support.EngineSettings;
import dev.continuum.engine.support.NoProviderTokens;
import dev.continuum.engine.support.InMemoryRunStore;
import dev.continuum.engine.support.TestClock;
import dev.continuum.engine.support.TimeSkipper;
import dev.continuum.flow.run.ActionObservation;
import dev.continuum.flow.run.Effect;
import dev.continuum.flow.run.RunContext;
import dev.continuum.flow.run.RunStatus;
import dev.continuum.flow.run.Step;
import io.smallrye.mutiny.Uni;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The driver's lease rules, on a virtual clock and an in-memory store with PgRunStore's rules: two
 * engine instances share the store; their work runs inline, so every step is deterministic.
 */
class RunDriverTest {

    private static final String PROVIDER = "https://provider.test/echo";
    private static final FlowRecord FLOW = flow("""
            {"StartAt":"Call","States":{"Call":{"Type":"Action","ActionUrl":"%s","Parameters":{"x":1},"WaitTime":3600,
             "ResultPath":"$.called","End":true}}}""".formatted(PROVIDER));

    private final TestClock clock = new TestClock();
    private final InMemoryRunStore store = new InMemoryRunStore();

    @Test
    void shouldTakeOverARunWhenTheLeaseOfADeadInstanceRunsOut() {
        RunRecord run = newRun("engine-dead"); // created, leased, and never driven: its instance died
        Instant leaseEnd = run.createdAt().plus(EngineSettings.LEASE); // the stored lease (the clock runs on in real time)
        Instance live = new Instance("engine-live", ScriptedGateway.Hold.NONE);

        live.driver.scan();
        assertThat(live.gateway.startedAt).as("calls while the dead instance's lease holds").isEmpty();

        assertThat(new TimeSkipper(clock, live.driver, store).runUntilDone(run.id())).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(live.gateway.startedAt).hasSize(1);
        assertThat(live.gateway.startedAt.getFirst()).isAfter(leaseEnd);
        assertThat(codes(run)).containsExactly("FlowStarted", "ActionStarted", "ActionCompleted", "FlowSucceeded");
    }

    @Test
    void shouldDropAStaleTurnsEffectsWhenAnotherInstanceTookTheRunOver() {
        Instance slow = new Instance("engine-slow", ScriptedGateway.Hold.ANSWER);
        Instance fast = new Instance("engine-fast", ScriptedGateway.Hold.NONE);
        RunRecord run = newRun(slow.driver.instanceId());
        slow.driver.launch(run.id(), run, leaseEnd(run)); // its provider call hangs past the lease

        clock.advance(EngineSettings.LEASE.plusSeconds(1));
        fast.driver.scan();
        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        List<String> logAfterTakeover = codes(run);

        slow.gateway.answerHeldCall(); // the stale turn now tries to commit the same step
        assertThat(codes(run)).isEqualTo(logAfterTakeover)
                .containsOnlyOnce("ActionCompleted", "FlowSucceeded");
        assertThat(slow.transitions).as("transitions the stale turn committed").hasValue(0);
        assertThat(slow.gateway.released).as("releases sent by the stale turn").isEmpty();
        assertThat(slow.tokens.forgotten).as("grants dropped by the stale turn").hasValue(0);
        assertThat(fast.gateway.released).containsExactly("action-1");
        assertThat(fast.tokens.forgotten).hasValue(1);
    }

    @Test
    void shouldNotCallTheProviderWhenTheRunWasTakenOverBeforeTheSlowTurnSentItsCall() {
        Instance slow = new Instance("engine-slow", ScriptedGateway.Hold.SEND);
        Instance fast = new Instance("engine-fast", ScriptedGateway.Hold.NONE);
        RunRecord run = newRun(slow.driver.instanceId());
        slow.driver.launch(run.id(), run, leaseEnd(run)); // its turn stalls before the call goes out

        clock.advance(EngineSettings.LEASE.plusSeconds(1));
        fast.driver.scan(); // takes the run over, calls, commits and releases the action
        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        List<String> logAfterTakeover = codes(run);
        slow.gateway.send(); // the stale turn comes back to its call

        assertThat(slow.gateway.startedAt).as("calls the stale turn sent after losing its lease").isEmpty();
        assertThat(fast.gateway.startedAt).hasSize(1);
        assertThat(fast.gateway.released).containsExactly("action-1");
        assertThat(codes(run)).isEqualTo(logAfterTakeover);
        assertThat(slow.transitions).hasValue(0);
    }

    @Test
    void shouldTakeTheLeaseAgainAndCallWhenItsTurnOutlivedTheLeaseButNobodyTookTheRun() {
        Instance slow = new Instance("engine-slow", ScriptedGateway.Hold.SEND);
        RunRecord run = newRun(slow.driver.instanceId());
        slow.driver.launch(run.id(), run, leaseEnd(run));

        clock.advance(EngineSettings.LEASE.plusSeconds(1));
        slow.gateway.send();

        assertThat(slow.gateway.startedAt).hasSize(1);
        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsExactly("FlowStarted", "ActionStarted", "ActionCompleted", "FlowSucceeded");
    }

    @Test
    void shouldCommitAnInProcessFinishThatCameDuringTheTurnWithoutQueueingItInTheInbox() {
        InProcessGateway provider = new InProcessGateway(true);
        RunDriver driver = driver("engine-1", provider);
        RunRecord run = newRun("engine-1");

        driver.launch(run.id(), run, leaseEnd(run));

        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsExactly("FlowStarted", "ActionStarted", "ActionPolled", "ActionCompleted",
                "FlowSucceeded");
        assertThat(store.pushes()).as("finishes that went through run_inbox").isZero();
        assertThat(provider.polls).as("status polls").hasValue(0);
        assertThat(store.commits()).as("turns committed: the start and the finish that came with it are one").isEqualTo(1);
    }

    @Test
    void shouldDriveARunAgainWhenAnInProcessActionFinishesAfterTheTurnEnded() {
        InProcessGateway provider = new InProcessGateway(false);
        RunDriver driver = driver("engine-1", provider, Duration.ZERO); // the drive ends right after the start
        RunRecord run = newRun("engine-1");
        driver.launch(run.id(), run, leaseEnd(run));
        assertThat(status(run)).isEqualTo(RunStatus.ACTIVE);

        provider.finish();

        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsOnlyOnce("ActionCompleted", "FlowSucceeded");
        assertThat(store.pushes()).as("finishes that went through run_inbox").isZero();
    }

    @Test
    void shouldTakeAQuickInProcessFinishInTheSameDriveWithoutClaimingTheRunAgain() {
        InProcessGateway provider = new InProcessGateway(false);
        RunDriver driver = driver("engine-1", provider, Duration.ofMinutes(5)); // the finish comes well within the grace
        RunRecord run = newRun("engine-1");
        driver.launch(run.id(), run, leaseEnd(run));
        assertThat(status(run)).isEqualTo(RunStatus.ACTIVE);
        assertThat(driver.idle()).as("the drive waits for the finish").isFalse();

        provider.finish();

        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsOnlyOnce("ActionCompleted", "FlowSucceeded");
        assertThat(store.claims()).as("claims").isZero();
        assertThat(store.commits()).as("turns committed: the start, then the finish").isEqualTo(2);
        assertThat(store.pushes()).as("finishes that went through run_inbox").isZero();
    }

    @Test
    void shouldLetTheLeaseGoWhenAnInProcessActionDoesNotFinishWithinTheGrace() {
        InProcessGateway provider = new InProcessGateway(false);
        RunDriver driver = driver("engine-1", provider, Duration.ofMillis(20));
        RunRecord run = newRun("engine-1");
        driver.launch(run.id(), run, leaseEnd(run));
        awaitIdle(driver); // real time, bounded: the grace timer runs on the real clock
        Instant now = clock.instant();

        assertThat(store.claim(run.id(), "engine-2", now, now.plus(EngineSettings.LEASE)).await().indefinitely())
                .as("the run, free for another instance to take").isPresent();
        assertThat(status(run)).isEqualTo(RunStatus.ACTIVE);
    }

    @Test
    void shouldQueueAnInProcessFinishInTheInboxWhenAnotherInstanceHoldsTheRun() {
        InProcessGateway provider = new InProcessGateway(false);
        RunDriver driver = driver("engine-1", provider, Duration.ZERO); // no wait: the lease is let go at once
        RunRecord run = newRun("engine-1");
        driver.launch(run.id(), run, leaseEnd(run));
        Instant now = clock.instant();
        assertThat(store.claim(run.id(), "engine-2", now, now.plus(EngineSettings.LEASE)).await().indefinitely()).isPresent();

        provider.finish(); // engine-2 holds the run: the finish must wait where engine-2 (or a later holder) finds it

        assertThat(status(run)).isEqualTo(RunStatus.ACTIVE);
        assertThat(store.pushes()).isEqualTo(1);
        clock.advance(EngineSettings.LEASE.plusSeconds(1)); // engine-2 died holding it
        driver.scan();
        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsOnlyOnce("ActionCompleted");
    }

    @Test
    void shouldCompleteTheRunAtOnceWhenAnInProcessActionFinishesWhileNoPollIsDue() {
        InProcessGateway provider = new InProcessGateway(false);
        RunDriver driver = driver("engine-1", provider, Duration.ZERO);
        driver.heartbeat();
        RunRecord run = newRun("engine-1");
        Instant started = clock.instant(); // the clock also runs on in real time: read before the start
        driver.launch(run.id(), run, leaseEnd(run));

        assertThat(store.listener(run.id())).as("the process told of the finish, as committed").isPresent();
        assertThat(store.nextWakeAt(run.id()).orElseThrow()).as("next wake-up: no poll before the backoff cap")
                .isAfterOrEqualTo(started.plus(EngineSettings.POLL_MAX));
        for (int i = 0; i < 6; i++) { // past the first polls of a backoff from 1 s (1, 2, 4, 8, 16, 32 s)
            clock.advance(Duration.ofSeconds(20));
            driver.heartbeat();
            driver.scan();
        }
        assertThat(provider.polls).as("status polls while the finish listener is held").hasValue(0);
        assertThat(status(run)).isEqualTo(RunStatus.ACTIVE);

        provider.finish();

        assertThat(status(run)).as("the run right after its action finished").isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsOnlyOnce("ActionCompleted", "FlowSucceeded");
        assertThat(provider.polls).hasValue(0);
        assertThat(store.listener(run.id())).isEmpty();
    }

    @Test
    void shouldPollAndCompleteTheRunWhenTheProcessHoldingItsFinishListenerRestarted() {
        RunDriver before = driver("engine-1", new InProcessGateway(false), Duration.ZERO);
        before.heartbeat();
        RunRecord run = newRun("engine-1");
        before.launch(run.id(), run, leaseEnd(run));
        assertThat(store.listener(run.id())).isPresent();

        InProcessGateway provider = new InProcessGateway(false); // the restarted process: its provider's poll says done
        provider.pollAnswer = "SUCCEEDED";
        RunDriver after = driver("engine-1", provider, Duration.ZERO); // same instance name, a new process
        after.heartbeat();
        after.scan();
        assertThat(provider.polls).as("polls while the old process's heartbeat may still be current").hasValue(0);

        clock.advance(EngineSettings.LEASE.plusSeconds(1)); // the old process's last heartbeat runs out
        after.heartbeat();
        after.scan();

        assertThat(provider.polls).as("status polls after the restart").hasValue(1);
        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
        assertThat(codes(run)).containsOnlyOnce("ActionCompleted", "FlowSucceeded");
        assertThat(store.listener(run.id())).isEmpty();
    }

    @Test
    void shouldStillPollAnInProcessActionAtTheBackoffCapInCaseItsFinishWentAstray() {
        InProcessGateway provider = new InProcessGateway(false);
        provider.pollAnswer = "SUCCEEDED";
        RunDriver driver = driver("engine-1", provider, Duration.ZERO);
        driver.heartbeat();
        RunRecord run = newRun("engine-1");
        driver.launch(run.id(), run, leaseEnd(run));

        clock.advance(EngineSettings.POLL_MAX.minusSeconds(30));
        driver.heartbeat();
        driver.scan();
        assertThat(provider.polls).as("polls before the cap").hasValue(0);
        clock.advance(Duration.ofSeconds(31));
        driver.heartbeat();
        driver.scan();

        assertThat(provider.polls).as("polls at the cap").hasValue(1);
        assertThat(status(run)).isEqualTo(RunStatus.SUCCEEDED);
    }

    private RunDriver driver(String id, ActionGateway gateway) {
        return driver(id, gateway, Duration.ofMillis(50));
    }

    private RunDriver driver(String id, ActionGateway gateway, Duration localFinishGrace) {
        EngineSettings settings = new EngineSettings(id, localFinishGrace);
        return new RunDriver(store, new FlowInterpreters(new OneFlow(), settings), gateway, new NoProviderTokens(), clock,
                settings, new CallbackUrls(new SelfUrl(settings)), Runnable::run, n -> { },
                change -> { });
    }

    /** One engine instance: its own driver, provider calls and tokens over the shared store and clock. */
    private final class Instance {
        final ScriptedGateway gateway;
        final NoProviderTokens tokens = new NoProviderTokens();
        final AtomicInteger transitions = new AtomicInteger();
        final RunDriver driver;

        Instance(String id, ScriptedGateway.Hold holdStart) {
            EngineSettings settings = new EngineSettings(id);
            FlowInterpreters interpreters = new FlowInterpreters(new OneFlow(), settings);
            gateway = new ScriptedGateway(clock, holdStart);
            driver = new RunDriver(store, interpreters, gateway, tokens, clock, settings,
                    new CallbackUrls(new SelfUrl(settings)), Runnable::run, transitions::addAndGet,
                    change -> { });
        }
    }

    /**
     * A built-in provider in this process: answers ACTIVE and reports the finish to the listener, either
     * before its answer (a timer that fired first) or when the test says; its status stays ACTIVE to a poll
     * (unless the test says otherwise), so only the reported finish can end the action.
     */
    private static final class InProcessGateway implements ActionGateway {
        final AtomicInteger polls = new AtomicInteger();
        volatile String pollAnswer = "ACTIVE";
        private final boolean finishBeforeAnswer;
        private FinishReport report;

        InProcessGateway(boolean finishBeforeAnswer) {
            this.finishBeforeAnswer = finishBeforeAnswer;
        }

        void finish() {
            report.listener().accept(JsonNodeFactory.instance.objectNode().put("action_id", "action-1")
                    .put("status", "SUCCEEDED").set("details", JsonNodeFactory.instance.objectNode()));
        }

        @Override
        public Uni<ActionObservation> start(UUID runId, Effect.StartAction action, FinishReport report, Fence fence) {
            this.report = report;
            if (finishBeforeAnswer) {
                finish();
            }
            return Uni.createFrom().item(new ActionObservation("action-1", "ACTIVE", JsonNodeFactory.instance.objectNode(), null));
        }

        @Override
        public boolean inProcess(String actionUrl) {
            return true;
        }

        @Override
        public Uni<ActionObservation> poll(UUID runId, Effect.PollAction poll) {
            polls.incrementAndGet();
            return Uni.createFrom().item(new ActionObservation("action-1", pollAnswer, JsonNodeFactory.instance.objectNode(), null));
        }

        @Override
        public Uni<Void> cancel(UUID runId, Effect.CancelAction cancel) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> release(UUID runId, Effect.ReleaseAction release) {
            return Uni.createFrom().voidItem();
        }
    }

    private static void awaitIdle(RunDriver driver) {
        await("driver idle").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(5)).until(driver::idle);
    }

    /** The lease {@link #newRun} stores. */
    private static Instant leaseEnd(RunRecord run) {
        return run.createdAt().plus(EngineSettings.LEASE);
    }

    /** As RunService starts a run: the first step is stored with the creator's lease. */
    private RunRecord newRun(String creator) {
        UUID runId = UUID.randomUUID();
        Instant now = clock.instant();
        FlowInterpreters interpreters = new FlowInterpreters(new OneFlow(), new EngineSettings(creator));
        Step step = interpreters.forRecord(FLOW).start(JsonNodeFactory.instance.objectNode(),
                new RunContext(runId.toString(), FLOW.id().toString(), 1, "scientist", null, List.of()), now);
        RunRecord run = new RunRecord(runId, FLOW.id(), 1, "scientist", null, List.of(), step.state(), now, now, null);
        store.insert(run, step.log(), now, creator, now.plus(EngineSettings.LEASE)).await().indefinitely();
        return run;
    }

    private RunStatus status(RunRecord run) {
        return store.find(run.id()).await().indefinitely().orElseThrow().state().status();
    }

    private List<String> codes(RunRecord run) {
        return store.events(run.id(), 0, 100).await().indefinitely().stream().map(RunEventRecord::code).toList();
    }

    private static FlowRecord flow(String definition) {
        try {
            JsonNode json = new ObjectMapper().readTree(definition);
            return new FlowRecord(UUID.randomUUID(), "scientist", 1, "test flow", null, null, List.of(), null, json, null,
                    Instant.EPOCH, Instant.EPOCH);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /**
     * A provider that succeeds at once, or holds its answer to the start call until told, or a turn that stalls
     * before its start call goes out until told. Asks the fence before sending, as HttpActionGateway does.
     */
    private static final class ScriptedGateway implements ActionGateway {
        enum Hold { NONE, ANSWER, SEND }

        private static final ActionObservation DONE = new ActionObservation("action-1", "SUCCEEDED",
                JsonNodeFactory.instance.objectNode(), null);
        final List<Instant> startedAt = new CopyOnWriteArrayList<>();
        final List<String> released = new CopyOnWriteArrayList<>();
        private final TestClock clock;
        private final Hold hold;
        private final CompletableFuture<ActionObservation> held = new CompletableFuture<>();
        private final CompletableFuture<Void> sendHeld = new CompletableFuture<>();

        ScriptedGateway(TestClock clock, Hold hold) {
            this.clock = clock;
            this.hold = hold;
        }

        void answerHeldCall() {
            held.complete(DONE);
        }

        void send() {
            sendHeld.complete(null);
        }

        @Override
        public Uni<ActionObservation> start(UUID runId, Effect.StartAction action, FinishReport report, Fence fence) {
            Uni<Void> ready = hold == Hold.SEND ? Uni.createFrom().completionStage(sendHeld) : Uni.createFrom().voidItem();
            return ready.flatMap(v -> fence.holds()).flatMap(stillHeld -> {
                if (!stillHeld) {
                    return Uni.createFrom().<ActionObservation>failure(new LeaseLost(runId));
                }
                startedAt.add(clock.instant());
                return hold == Hold.ANSWER ? Uni.createFrom().completionStage(held) : Uni.createFrom().item(DONE);
            });
        }

        @Override
        public Uni<ActionObservation> poll(UUID runId, Effect.PollAction poll) {
            return Uni.createFrom().item(DONE);
        }

        @Override
        public Uni<Void> cancel(UUID runId, Effect.CancelAction cancel) {
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Void> release(UUID runId, Effect.ReleaseAction release) {
            released.add(release.actionId());
            return Uni.createFrom().voidItem();
        }
    }

    /** The catalogue holds the one test flow. */
    private static final class OneFlow implements FlowStore {
        @Override
        public Uni<Optional<FlowRecord>> findVersion(UUID id, int version) {
            return Uni.createFrom().item(Optional.of(FLOW));
        }

        @Override
        public Uni<Optional<FlowRecord>> find(UUID id) {
            return findVersion(id, 1);
        }

        @Override
        public Uni<Void> create(FlowRecord flow) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Slice<FlowRecord>> list(FlowQuery query, Viewer viewer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Void> addVersion(FlowRecord flow, String author) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Optional<FlowVersion>> findSaved(UUID id, int version) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Slice<FlowVersion.Change>> history(UUID id, VersionQuery query) {
            throw new UnsupportedOperationException();
        }

        @Override
        public Uni<Boolean> delete(UUID id) {
            throw new UnsupportedOperationException();
        }
    }
}
