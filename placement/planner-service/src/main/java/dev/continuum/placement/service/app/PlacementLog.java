package dev.continuum.placement.service.app;

import dev.continuum.placement.core.planner.PlacementRequest;
import java.util.List;
import java.util.Optional;

/** Where requests and every decision about them are kept (PostgreSQL in the service): a restart loses none. */
public interface PlacementLog {

    /**
     * Keeps a new request, with the client to push its re-placements to ({@code owner}, null = none); false if one
     * with this id is already kept.
     */
    boolean addRequest(PlacementRequest request, String runId, String owner, java.time.Instant at);

    /**
     * Keeps a request whose decisions a provider makes itself and reports ({@link StoredRequest#reported()}); false
     * if one with this id is already kept.
     */
    boolean addReportedRequest(PlacementRequest request, String runId, java.time.Instant at);

    Optional<StoredRequest> request(String requestId);

    /** Appends decisions in order; returns them with their sequence numbers. */
    List<DecisionRecord> append(List<DecisionRecord> decisions);

    /** Every decision about one request, oldest first. */
    List<DecisionRecord> decisionsOf(String requestId);

    /** A page of the log, oldest first. */
    List<DecisionRecord> list(DecisionQuery query);

    /** The job finished (its completion was reported): a restarted planner does not take it back. */
    void markFinished(String requestId, java.time.Instant at);

    /**
     * Jobs not finished whose latest decision is placed, moved, queued or preempted, oldest first: what a
     * restarted planner takes back (never a reported job: its provider decides about it).
     */
    List<dev.continuum.placement.core.planner.Restored> unfinished();

    /**
     * A request as kept, with the run it belongs to ("" when none was given), whom to push its re-placements to
     * ({@code owner}, or null); {@code reported}: its decisions are a provider's own, reported to the log, not this
     * planner's.
     */
    record StoredRequest(PlacementRequest request, String runId, java.time.Instant at, String owner, boolean reported) {}
}
