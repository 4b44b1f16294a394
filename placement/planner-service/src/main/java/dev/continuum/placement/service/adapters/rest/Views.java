package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.placement.api.DecisionView;
import dev.continuum.placement.api.PlacementView;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.PlacementLog;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * What the API answers, in the planner contract's records (placement/api): decisions in the planner trace's JSON, with
 * the log's columns beside them.
 */
final class Views {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Views() {}

    static DecisionView of(DecisionRecord r) {
        return new DecisionView(r.seq(), r.requestId(), blankToNull(r.runId()), r.kind(), r.status(), r.site(), r.at(),
                r.cause().name().toLowerCase(), TraceCodec.decisionTree(r.decision()));
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
