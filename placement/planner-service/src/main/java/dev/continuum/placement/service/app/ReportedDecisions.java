package dev.continuum.placement.service.app;

import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequests;
import dev.continuum.placement.service.app.DecisionRecord.Cause;
import java.time.Instant;
import java.util.List;

/**
 * Decisions a provider made itself and reported (the training provider places its jobs with its own copy of the
 * planner core, docs/training.md): written to the same log as the planner's own, so the log and the web UI's
 * devices page show every job, but never fed to this planner — the job is the provider's, and a restarted planner
 * does not take it back ({@link PlacementLog#unfinished()}).
 */
public final class ReportedDecisions {

    private final PlacementLog log;

    public ReportedDecisions(PlacementLog log) {
        this.log = log;
    }

    /**
     * Appends {@code decision} about job {@code id} (kind training, of run {@code runId} when known); the job's first
     * report files it in the log. A job this planner decides about itself cannot be reported over.
     */
    public synchronized DecisionRecord record(String id, String runId, Instant at, PlacementDecision decision) {
        var known = log.request(id);
        if (known.isPresent() && !known.get().reported()) {
            throw new DuplicateRequestException(id);
        }
        if (known.isEmpty()) {
            // the provider keeps its request; the log needs one to file the job under, of its kind and run
            log.addReportedRequest(PlacementRequests.from(new PlacementBody(id, runId, PlacementBody.TRAINING, null,
                    null, null, null, null, null, null, null, null, null, null, null, null, null, null)), runId, at);
        }
        return log.append(List.of(new DecisionRecord(0, id, null, null, at, Cause.REPORTED, decision))).getFirst();
    }
}
