package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.PlacementLog;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/** What the API answers: decisions in the planner trace's JSON, with the log's columns beside them. */
final class Views {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One log entry. {@code cause}: request (a new job), inventory (e.g. its gateway went away) or completion. */
    record DecisionView(long seq, String id, String runId, String kind, String status, String site, Instant at,
                        String cause, JsonNode decision) {}

    /** A job: its request, its latest status and site, and every decision about it, oldest first. */
    record PlacementView(String id, String runId, String kind, String status, String site, JsonNode request,
                         List<DecisionView> decisions, List<DecisionView> others) {}

    /** A page of the log; {@code marker} fetches the next one (absent on the last page). */
    record PageView(List<DecisionView> placements, String marker) {}

    private Views() {}

    static DecisionView of(DecisionRecord r) {
        return new DecisionView(r.seq(), r.requestId(), blankToNull(r.runId()), r.kind(), r.status(), r.site(), r.at(),
                r.cause().name().toLowerCase(), tree(TraceCodec.writeDecision(r.decision())));
    }

    static PlacementView of(PlacementLog.StoredRequest request, List<DecisionRecord> decisions, List<DecisionRecord> others) {
        DecisionRecord last = decisions.getLast();
        return new PlacementView(request.request().id(), blankToNull(request.runId()),
                request.request().kind().name().toLowerCase(), last.status(), last.site(),
                tree(TraceCodec.writeRequest(request.request())), decisions.stream().map(Views::of).toList(),
                others.stream().map(Views::of).toList());
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String blankToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }
}
