package dev.continuum.engine.app;

import dev.continuum.flow.run.LogEntry;
import dev.continuum.flow.run.RunState;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Durable runs. Every method that changes a run is one transaction; a step is committed only by
 * the instance holding the run's lease, so two instances never both commit a step of one run.
 */
public interface RunStore {

    /** A completion pushed by a provider, waiting in the run's inbox. */
    record InboxItem(long id, String token, com.fasterxml.jackson.databind.JsonNode status) {}

    Uni<Void> insert(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner, Instant leaseUntil);

    /**
     * As {@link #insert}, but only while {@code run.flowVersion()} is still its flow's current version and the flow is
     * not deleted, checked in the same statement: false, and nothing written, when the flow changed. A start can then
     * take the flow as this process last saw it instead of asking the database first.
     */
    Uni<Boolean> insertIfCurrent(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner, Instant leaseUntil);

    /**
     * Stores the run's new state and appends its log, if {@code leaseOwner} still holds the lease and
     * nobody committed since the state this step started from (stored {@code updated_at} equals
     * {@code basedOn}; the commit sets it to {@code now}). The lease alone is not enough: an instance
     * whose slow turn outlived its lease can hold the lease again (its own scan re-claimed the run)
     * after another instance has moved the run on; committing the stale turn would repeat steps.
     * {@code leaseUntil} null releases the lease. Consumed inbox items are deleted in the same transaction.
     * {@code listener} is the engine process (see {@link #heartbeat}) that will be told of the finish of some of the
     * run's actions and so has left their polls out of {@code nextWakeAt}; null when every action is polled as scheduled.
     * @return false when the lease was lost or the run moved on (another instance took the run over)
     */
    Uni<Boolean> commit(UUID runId, String leaseOwner, Instant basedOn, RunState state, List<LogEntry> log,
                        Instant nextWakeAt, Instant leaseUntil, Instant now, List<Long> consumedInbox, String listener);

    /**
     * Records that engine process {@code incarnation} lives until {@code aliveUntil}, and makes due now every unfinished
     * run whose listener's heartbeat ran out before {@code now} (that process died or restarted, and the finishes it was
     * to be told of are lost with it), clearing the listener, so their actions are polled again.
     * @return how many runs were made due
     */
    Uni<Integer> heartbeat(String incarnation, Instant now, Instant aliveUntil);

    /**
     * Redrive: a FAILED run starts its next attempt. Stores {@code state}, appends {@code log}, sets the completion
     * time anew (now if the attempt already finished, else none) and the next wake-up, in one transaction, with no
     * lease held; false when the run is not FAILED any more or changed since {@code basedOn} (its {@code updated_at}),
     * so two redrives of one failure cannot both start.
     */
    Uni<Boolean> reopen(UUID runId, Instant basedOn, RunState state, List<LogEntry> log, Instant nextWakeAt, Instant now);

    /** Leases up to {@code limit} runs whose next wake-up is due and that nobody holds. */
    Uni<List<UUID>> claimDue(String owner, Instant now, Instant leaseUntil, int limit);

    /**
     * The earliest time some run becomes due for a scan: its next wake-up, or the end of the lease that
     * holds it, whichever is later; empty when no run waits on time (the test TimeSkipper jumps to it).
     */
    Uni<Optional<Instant>> nextDue();

    /**
     * Extends {@code owner}'s lease on a run to {@code leaseUntil}, or takes it again if it ran out and nobody took it,
     * provided the run has not moved on since {@code basedOn} (its {@code updated_at}); false, and nothing written,
     * when another instance holds the run or committed since. A turn asks this before calling a provider once its
     * lease is running short, so a turn that outlived its lease never calls on behalf of a run taken over.
     */
    Uni<Boolean> holdLease(UUID runId, String owner, Instant basedOn, Instant now, Instant leaseUntil);

    /** Leases one run if nobody else holds it. */
    Uni<Optional<RunRecord>> claim(UUID runId, String owner, Instant now, Instant leaseUntil);

    Uni<Optional<RunRecord>> find(UUID runId);

    /**
     * One page of the runs matching {@code query}, cut in the database. A restricted viewer gets only the runs
     * {@link Access#seesRun} lets them see (the same rule, in SQL); role filters are the viewer's roles.
     */
    Uni<Slice<RunRecord>> list(RunQuery query, Viewer viewer);

    /** Changes what a person may change on a run (PUT /runs/{id}); false when the run does not exist. */
    Uni<Boolean> update(UUID runId, String label, List<String> tags, List<String> runManagers, List<String> runMonitors);

    Uni<List<RunEventRecord>> events(UUID runId, int afterSeq, int limit);

    /** Log entries below {@code beforeSeq}, newest first (reverse_order). */
    Uni<List<RunEventRecord>> eventsBefore(UUID runId, int beforeSeq, int limit);

    Uni<List<InboxItem>> inbox(UUID runId);

    /** Records a pushed completion and makes the run due now. */
    Uni<Boolean> push(UUID runId, String token, com.fasterxml.jackson.databind.JsonNode status, Instant now);

    /** Makes the run due at {@code at} (e.g. resume); false when the run does not exist. */
    Uni<Boolean> wake(UUID runId, Instant at);

    /** Removes a finished run and its log; false when it does not exist or is not finished. */
    Uni<Boolean> delete(UUID runId);

    /**
     * Removes up to {@code limit} runs that finished before {@code cutoff} — every owner's when {@code owner} is
     * empty, else that owner's — with their logs and sealed grants; how many it removed.
     */
    Uni<Integer> purgeFinished(Instant cutoff, java.util.Optional<String> owner, int limit);

    Uni<java.util.Map<String, Long>> countByStatus();

    /** The runs due at {@code now} that no instance holds (the metrics' queue depth and lag). */
    Uni<DueBacklog> dueBacklog(java.time.Instant now);
}
