package dev.continuum.engine.adapters.persistence;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.engine.app.FlowInterpreters;
import dev.continuum.engine.app.RunEventRecord;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.RunStore;
import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.flow.run.Interpreter;
import dev.continuum.flow.run.LogEntry;
import dev.continuum.flow.run.RunContext;
import dev.continuum.flow.run.RunState;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** Many runs' turns committed at once, as the driver does under load: each run keeps its own lease check. */
@QuarkusTest
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
class GroupCommitTest {

    private static final String WAITING_FLOW = """
            {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":100000,"End":true}}}""";

    /** Longer than any test here takes, so the engine's own scan never takes these runs over mid-test. */
    private static final Duration LEASE = Duration.ofHours(1);

    @Inject
    RunStore runs;

    @Inject
    FlowInterpreters interpreters;

    @Inject
    Pool pool;

    @Inject
    PgRunStore store;

    @Test
    void shouldWriteEveryTurnOfABatchInOneStatementExceptTheOneWhoseLeaseWasLost() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<RunRecord> started = leasedRuns(5, created);
        OffsetDateTime now = created.plusSeconds(1).atOffset(ZoneOffset.UTC);
        List<RunCommit> turns = started.stream().map(run -> new RunCommit(run.id(),
                run == started.get(2) ? "instance-b" : "instance-a", created.atOffset(ZoneOffset.UTC),
                run.state().toJson().toString(), "ACTIVE", 2, null, now, null, true, List.of(),
                turn(run.id(), now, 2), null)).toList();

        List<Boolean> committed = new RunCommits(pool).many(turns).await().indefinitely();

        assertThat(committed).containsExactly(true, true, false, true, true);
        assertThat(runs.events(started.get(2).id(), 0, 10).await().indefinitely()).isEmpty();
        assertThat(runs.events(started.get(4).id(), 0, 10).await().indefinitely())
                .extracting(RunEventRecord::seq, RunEventRecord::description)
                .containsExactly(tuple(1, "turn 1"), tuple(2, "turn 2"));
    }

    @Test
    void shouldTakeOnlyTheLeasesNobodyElseHoldsWhenManyRunsAreClaimedTogether() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<RunRecord> started = leasedRuns(3, created);
        OffsetDateTime now = created.plusSeconds(1).atOffset(ZoneOffset.UTC);
        OffsetDateTime expired = created.plus(LEASE).plusSeconds(1).atOffset(ZoneOffset.UTC);

        List<Optional<RunRecord>> taken = new RunClaims(pool, store::toRun).many(List.of(
                new RunClaims.Claim(started.get(0).id(), "instance-b", now, now.plusSeconds(30)), // a's lease is live
                new RunClaims.Claim(started.get(1).id(), "instance-a", now, now.plusSeconds(30)), // a holds it already
                new RunClaims.Claim(started.get(2).id(), "instance-b", expired, expired.plusSeconds(30)))) // a's ran out
                .await().indefinitely();

        assertThat(taken).extracting(Optional::isPresent).containsExactly(false, true, true);
    }

    @Test
    void shouldQueueCompletionsOnlyForRunsThatAreStillGoingWhenManyArePushedTogether() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<RunRecord> started = leasedRuns(2, created);
        OffsetDateTime now = created.plusSeconds(1).atOffset(ZoneOffset.UTC);
        UUID gone = UUID.randomUUID();

        List<Boolean> queued = new InboxPushes(pool).many(List.of(
                new InboxPushes.Push(started.get(0).id(), "t1", "{\"status\":\"SUCCEEDED\"}", now),
                new InboxPushes.Push(gone, "t2", "{\"status\":\"SUCCEEDED\"}", now),
                new InboxPushes.Push(started.get(1).id(), "t3", "{\"status\":\"FAILED\"}", now))).await().indefinitely();

        assertThat(queued).containsExactly(true, false, true);
        assertThat(runs.inbox(started.get(1).id()).await().indefinitely())
                .extracting(RunStore.InboxItem::token).containsExactly("t3");
    }

    @Test
    void shouldRefuseOnlyTheTurnWhoseLeaseWasLostWhenManyRunsCommitAtOnce() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<RunRecord> started = leasedRuns(40, created);
        UUID stolen = started.get(7).id();
        Instant now = created.plusSeconds(1);

        List<Uni<Boolean>> commits = started.stream().map(run -> runs.commit(run.id(),
                run.id().equals(stolen) ? "instance-b" : "instance-a", created, run.state(),
                List.of(new LogEntry("Noted", "W", "turn of " + run.id(), JsonNodeFactory.instance.objectNode(), now)),
                null, null, now, List.of(), null)).toList();
        List<Boolean> committed = Uni.join().all(commits).andFailFast().await().indefinitely();

        for (int i = 0; i < started.size(); i++) {
            UUID id = started.get(i).id();
            var log = runs.events(id, 0, 10).await().indefinitely();
            if (id.equals(stolen)) {
                assertThat(committed.get(i)).isFalse();
                assertThat(log).isEmpty();
                assertThat(runs.find(id).await().indefinitely().orElseThrow().updatedAt()).isEqualTo(created);
            } else {
                assertThat(committed.get(i)).isTrue();
                assertThat(log).singleElement().satisfies(e -> {
                    assertThat(e.seq()).isEqualTo(1);
                    assertThat(e.description()).isEqualTo("turn of " + id);
                });
            }
        }
    }

    @Test
    void shouldMakeDueOnlyTheRunsWhoseFinishListenerIsInAProcessWhoseHeartbeatRanOut() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        List<RunRecord> started = leasedRuns(3, created);
        String gone = "process-gone-" + UUID.randomUUID();
        String live = "process-live-" + UUID.randomUUID();
        Instant now = created.plusSeconds(1);
        Instant far = created.plus(Duration.ofDays(1)); // when each commits its next wake-up: polls left out
        runs.heartbeat(gone, created.minusSeconds(60), created.minusSeconds(30)).await().indefinitely(); // died a while ago
        runs.heartbeat(live, created, created.plus(LEASE)).await().indefinitely();
        List<String> listeners = java.util.Arrays.asList(gone, live, null);

        List<Boolean> committed = Uni.join().all(java.util.stream.IntStream.range(0, 3).mapToObj(i -> runs.commit(
                started.get(i).id(), "instance-a", created, started.get(i).state(), List.of(), far, created.plus(LEASE), now,
                List.of(), listeners.get(i))).toList()).andFailFast().await().indefinitely(); // as one group commit
        runs.heartbeat(live, now, now.plus(LEASE)).await().indefinitely();

        assertThat(committed).containsOnly(true);
        List<Object[]> rows = new ArrayList<>();
        for (RunRecord run : started) {
            var row = pool.preparedQuery("SELECT listener, next_wake_at FROM runs WHERE id = $1")
                    .execute(io.vertx.mutiny.sqlclient.Tuple.of(run.id())).await().indefinitely().iterator().next();
            rows.add(new Object[]{row.getString(0), row.getOffsetDateTime(1).toInstant().isBefore(far)});
        }
        assertThat(rows).as("listener, and due before the committed wake-up, per run")
                .containsExactly(new Object[]{null, true}, new Object[]{live, false}, new Object[]{null, false});
    }

    @Test
    void shouldInsertEveryRunStartedTogetherWithItsOwnFirstLogEntries() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID flowId = UUID.fromString(Flows.publish(WAITING_FLOW));
        Flows.start(flowId.toString(), "{}"); // the flow's interpreter is cached from here on
        Interpreter interpreter = interpreters.forVersion(flowId, 1).await().indefinitely();
        List<RunRecord> started = new ArrayList<>();
        java.util.Map<UUID, List<String>> firstLog = new java.util.HashMap<>();
        List<Uni<Void>> inserts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            UUID id = UUID.randomUUID();
            var step = interpreter.start(JsonNodeFactory.instance.objectNode().put("n", i),
                    new RunContext(id.toString(), flowId.toString(), 1, "me", i % 2 == 0 ? null : "odd", List.of()), created);
            RunRecord run = new RunRecord(id, flowId, 1, "me", i % 2 == 0 ? null : "odd", List.of("t" + i), step.state(),
                    created, created, null);
            started.add(run);
            firstLog.put(id, step.log().stream().map(LogEntry::code).toList());
            inserts.add(runs.insert(run, step.log(), null, i % 3 == 0 ? "instance-a" : null,
                    i % 3 == 0 ? created.plus(LEASE) : null));
        }

        Uni.join().all(inserts).andFailFast().await().indefinitely(); // as concurrent POST /flows/{id}/run do

        for (RunRecord run : started) {
            RunRecord stored = runs.find(run.id()).await().indefinitely().orElseThrow();
            assertThat(stored.label()).isEqualTo(run.label());
            assertThat(stored.tags()).isEqualTo(run.tags());
            assertThat(stored.state().toJson()).isEqualTo(run.state().toJson());
            assertThat(runs.events(run.id(), 0, 10).await().indefinitely()).extracting(RunEventRecord::code)
                    .isNotEmpty().containsExactlyElementsOf(firstLog.get(run.id()));
        }
    }

    @Test
    void shouldInsertOnlyTheStartsWhoseFlowVersionIsStillCurrent() {
        Instant created = Instant.now().truncatedTo(ChronoUnit.MICROS);
        UUID flowId = UUID.fromString(Flows.publish(WAITING_FLOW));
        Flows.start(flowId.toString(), "{}");
        Interpreter interpreter = interpreters.forVersion(flowId, 1).await().indefinitely();
        newVersionElsewhere(flowId);
        List<RunRecord> batch = new ArrayList<>();
        List<Uni<Boolean>> inserts = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            UUID id = UUID.randomUUID();
            int version = i % 2 == 0 ? 1 : 2; // even: started from the version this process last saw
            RunState state = interpreter.start(JsonNodeFactory.instance.objectNode(),
                    new RunContext(id.toString(), flowId.toString(), version, "me", null, List.of()), created).state();
            RunRecord run = new RunRecord(id, flowId, version, "me", null, List.of(), state, created, created, null);
            batch.add(run);
            inserts.add(runs.insertIfCurrent(run, List.of(), null, null, null));
        }

        List<Boolean> inserted = Uni.join().all(inserts).andFailFast().await().indefinitely();

        assertThat(inserted).containsExactly(false, true, false, true, false, true);
        for (RunRecord run : batch) {
            assertThat(runs.find(run.id()).await().indefinitely()).as("stored run of version " + run.flowVersion())
                    .matches(stored -> stored.isPresent() == (run.flowVersion() == 2));
        }
    }

    @Test
    void shouldStartARunFromTheNewVersionWhenAnotherInstanceUpdatedTheFlowSinceThisOneLastSawIt() {
        UUID flowId = UUID.fromString(Flows.publish(WAITING_FLOW));
        Flows.start(flowId.toString(), "{}"); // this instance now knows version 1 as current
        newVersionElsewhere(flowId);

        String runId = Flows.start(flowId.toString(), "{}");

        Flows.run(runId).body("flow_version", org.hamcrest.Matchers.equalTo(2));
    }

    /** Version 2 of the flow, written as another engine instance's update would: this instance's memory still says 1. */
    private void newVersionElsewhere(UUID flowId) {
        pool.preparedQuery("INSERT INTO flow_versions (flow_id, version, definition, input_schema, created_at) "
                        + "SELECT flow_id, 2, definition, input_schema, now() FROM flow_versions WHERE flow_id = $1 AND version = 1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(flowId)).await().indefinitely();
        pool.preparedQuery("UPDATE flows SET current_version = 2 WHERE id = $1")
                .execute(io.vertx.mutiny.sqlclient.Tuple.of(flowId)).await().indefinitely();
    }

    /** Runs waiting in a Wait state, leased to instance-a, as the driver finds them before a turn. */
    private List<RunRecord> leasedRuns(int count, Instant created) {
        UUID flowId = UUID.fromString(Flows.publish(WAITING_FLOW));
        Flows.start(flowId.toString(), "{}"); // the flow's interpreter is cached from here on
        Interpreter interpreter = interpreters.forVersion(flowId, 1).await().indefinitely();
        List<RunRecord> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            UUID id = UUID.randomUUID();
            RunState state = interpreter.start(JsonNodeFactory.instance.objectNode(),
                    new RunContext(id.toString(), flowId.toString(), 1, "me", "group", List.of()), created).state();
            RunRecord run = new RunRecord(id, flowId, 1, "me", "group", List.of(), state, created, created, null);
            runs.insert(run, List.of(), null, "instance-a", created.plus(LEASE)).await().indefinitely();
            started.add(run);
        }
        return started;
    }

    /** A turn's log as RunCommits takes it: one row naming the run, holding its entries in order. */
    private static String turn(UUID runId, OffsetDateTime at, int entries) {
        return java.util.stream.IntStream.rangeClosed(1, entries).mapToObj(seq -> """
                        {"code":"Noted","state_name":"W","description":"turn %d","details":{},"at":"%s"}""".formatted(seq, at))
                .collect(java.util.stream.Collectors.joining(",", "{\"run_id\":\"" + runId + "\",\"entries\":[", "]}"));
    }
}
