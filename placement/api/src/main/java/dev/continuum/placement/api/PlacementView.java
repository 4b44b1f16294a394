package dev.continuum.placement.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * A job as the planner answers it ({@code POST /placements}, {@code GET /placements/{id}}): its request (in the
 * trace's JSON), its latest status and site, every decision about it, oldest first, and what the same policy round
 * did to {@code others}.
 */
public record PlacementView(String id, String runId, String kind, String status, String site,
                            JsonNode request, List<DecisionView> decisions,
                            List<DecisionView> others) {

    /** The job's own first decision (the answer to its request); empty when there is none. */
    public Optional<DecisionView> first() {
        return decisions == null || decisions.isEmpty() ? Optional.empty() : Optional.of(decisions.getFirst());
    }

    /**
     * Where the job runs now that {@code lost} went away, if the planner has decided it again: placed on another
     * site, or found unplaceable after its first decision. Empty while the latest decision still names {@code lost}
     * (the planner has not seen the site go yet).
     */
    public Optional<Replacement> replacementAfter(String lost) {
        if (decisions == null || decisions.isEmpty()) {
            return Optional.empty();
        }
        DecisionView latest = decisions.getLast();
        String status = latest.status() == null ? "" : latest.status();
        if (DecisionTypes.PLACED.equals(status) && !lost.equals(latest.site())) {
            return Optional.of(new Replacement(id, lost, latest.site(), latest.decision()));
        }
        if (DecisionTypes.UNPLACEABLE.equals(status) && latest.seq() > decisions.getFirst().seq()) {
            return Optional.of(new Replacement(id, lost, null, latest.decision()));
        }
        return Optional.empty();
    }
}
