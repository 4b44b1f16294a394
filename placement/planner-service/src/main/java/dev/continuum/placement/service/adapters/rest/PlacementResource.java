package dev.continuum.placement.service.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.placement.api.Completion;
import dev.continuum.placement.api.PageView;
import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.api.PlacementView;
import dev.continuum.placement.api.ReportedDecision;
import dev.continuum.placement.core.planner.InvalidRequestException;
import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequests;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.placement.service.app.DecisionQuery;
import dev.continuum.placement.service.app.DecisionRecord;
import dev.continuum.placement.service.app.PlacementLog;
import dev.continuum.placement.service.app.PlannerService;
import dev.continuum.placement.service.app.ReportedDecisions;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.NotFoundException;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * The planner's API: decide for a job, record a decision a provider made itself, read a job's decisions, page through
 * the log. Every call needs a token.
 */
@Path("/placements")
@Produces(MediaType.APPLICATION_JSON)
public class PlacementResource {

    private final PlannerService planner;
    private final PlacementLog log;
    private final ReportedDecisions reported;
    private final Clock clock;

    public PlacementResource(PlannerService planner, PlacementLog log, ReportedDecisions reported, Clock clock) {
        this.planner = planner;
        this.log = log;
        this.reported = reported;
        this.clock = clock;
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response place(PlacementBody body) {
        if (body == null) {
            throw new InvalidRequestException("", "a placement request body is required");
        }
        if (body.owner() != null) {
            checkOwner(body.owner());
        }
        List<DecisionRecord> decided = planner.place(PlacementRequests.from(body), body.runId(), body.owner());
        String id = decided.getFirst().requestId();
        List<DecisionRecord> others = decided.stream().filter(d -> !d.requestId().equals(id)).toList();
        PlacementView view = Views.of(log.request(id).orElseThrow(), log.decisionsOf(id), others);
        return Response.created(URI.create("/placements/" + id)).entity(view).build();
    }

    /** {@code owner} becomes one level of the push topic: the device ids' alphabet, so no wildcard or extra level. */
    private static void checkOwner(String owner) {
        try {
            Topics.checkId(owner);
        } catch (IllegalArgumentException e) {
            throw new InvalidRequestException("owner", "must be the caller's MQTT client id, 1-64 letters, digits, "
                    + "'.', '_' or '-' starting with a letter or digit, was " + owner);
        }
    }

    @GET
    @Path("/{id}")
    public PlacementView get(@PathParam("id") String id) {
        PlacementLog.StoredRequest request = log.request(id)
                .orElseThrow(() -> new NotFoundException("no placement request " + id));
        return Views.of(request, log.decisionsOf(id), List.of());
    }

    /**
     * A decision a provider made itself about job {@code id} ({@link ReportedDecision}: the training provider's
     * in-process planner), appended to the log as it was decided; answers the job as {@code GET} does.
     */
    @POST
    @Path("/{id}/decisions")
    @Consumes(MediaType.APPLICATION_JSON)
    public Response reported(@PathParam("id") String id, ReportedDecision body) {
        if (body == null) {
            throw new InvalidRequestException("", "a reported decision body is required");
        }
        List<InvalidRequestException.FieldError> errors = new ArrayList<>();
        if (!PlacementBody.TRAINING.equals(body.kind())) {
            errors.add(new InvalidRequestException.FieldError("kind", "must be '" + PlacementBody.TRAINING
                    + "' (only the training provider decides placements itself), was " + body.kind()));
        }
        PlacementDecision decision = null;
        if (body.decision() == null || !body.decision().isObject()) {
            errors.add(new InvalidRequestException.FieldError("decision", "is required: the decision in the log's JSON"
                    + " (type, requestId, ...), was " + body.decision()));
        } else {
            try {
                decision = TraceCodec.readDecision(body.decision().toString());
                if (!id.equals(decision.requestId())) {
                    errors.add(new InvalidRequestException.FieldError("decision.requestId", "must be the job's id "
                            + id + ", was " + decision.requestId()));
                }
            } catch (RuntimeException e) {
                errors.add(new InvalidRequestException.FieldError("decision", e.getMessage()));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        reported.record(id, body.runId(), body.at() == null ? clock.instant() : body.at(), decision);
        PlacementView view = Views.of(log.request(id).orElseThrow(), log.decisionsOf(id), List.of());
        return Response.created(URI.create("/placements/" + id)).entity(view).build();
    }

    /**
     * What ran a job reports when it finishes: {@code site} (default: where the log last placed it) and what it
     * measured, each in milliseconds and each optional — {@code computeMillis} (the site's time per task),
     * {@code queuedMillis}, {@code transferMillis} (moving its input there) and {@code overheadMillis} (the rest of
     * the round trip). The cost model learns compute, overhead and the queue wait beyond what the tasks ahead
     * explained; a term left out is not learnt (older clients send only {@code computeMillis}). A {@code
     * transferMillis} above 0 corrects the link the input came over, beside the transfer provider's measured rates
     * ({@code PlannerService.inputMoved}).
     */
    @POST
    @Path("/{id}/completion")
    @Consumes(MediaType.APPLICATION_JSON)
    public PageView completed(@PathParam("id") String id, JsonNode body) {
        PlacementLog.StoredRequest request = log.request(id)
                .orElseThrow(() -> new NotFoundException("no placement request " + id));
        JsonNode b = body == null || body.isNull() ? JsonNodeFactory.instance.objectNode() : body;
        if (!b.isObject()) {
            throw new InvalidRequestException("", "must be a JSON object");
        }
        List<InvalidRequestException.FieldError> errors = new ArrayList<>();
        b.fieldNames().forEachRemaining(f -> {
            if (!Completion.FIELDS.contains(f)) {  // anything else is refused, as unknown fields in a placement request are
                errors.add(new InvalidRequestException.FieldError(f, "'" + f + "' is not a known field"));
            }
        });
        JsonNode siteNode = b.path("site");
        if (!siteNode.isMissingNode() && !siteNode.isNull() && !siteNode.isTextual()) {
            errors.add(new InvalidRequestException.FieldError("site", "must be a site name, was " + siteNode));
        }
        long compute = millis(b, "computeMillis", errors);
        long queued = millis(b, "queuedMillis", errors);
        millis(b, "transferMillis", errors);
        long overhead = millis(b, "overheadMillis", errors);
        if (!errors.isEmpty()) {
            throw new InvalidRequestException(errors);
        }
        String site = siteNode.isTextual() ? siteNode.asText() : log.decisionsOf(id).getLast().site();
        long transfer = Math.round(b.path("transferMillis").asDouble(0)); // checked above
        if (transfer > 0 && site != null) {
            planner.inputMoved(id, site, transfer); // before the completion, which lets the job go
        }
        if (site == null) {
            throw new InvalidRequestException("site", "is required: the job has no site in the decision log");
        }
        List<DecisionRecord> decided = planner.completed(id, site, request.request().model(), compute, overhead,
                queued);
        return new PageView(decided.stream().map(Views::of).toList(), null);
    }

    /** A measured time: absent or null → not measured (so not learnt); a negative or non-numeric one is named. */
    private static long millis(JsonNode body, String field, List<InvalidRequestException.FieldError> errors) {
        JsonNode v = body.path(field);
        if (v.isMissingNode() || v.isNull()) {
            return Observation.JobCompleted.NOT_MEASURED;
        }
        if (!v.isNumber() || v.asDouble() < 0) {
            errors.add(new InvalidRequestException.FieldError(field, (v.isNumber() ? "must not be negative"
                    : "must be a number of milliseconds") + ", was " + v));
            return Observation.JobCompleted.NOT_MEASURED;
        }
        return Math.round(v.asDouble());
    }

    /** The log, oldest first, filtered; {@code subject} is a request (action) id or a run id. */
    @GET
    public PageView list(@QueryParam("subject") String subject, @QueryParam("kind") String kind,
                               @QueryParam("site") String site, @QueryParam("status") String status,
                               @QueryParam("from") String from, @QueryParam("to") String to,
                               @QueryParam("limit") Integer limit, @QueryParam("marker") String marker) {
        int pageSize = limit == null ? 100 : limit;
        if (pageSize < 1 || pageSize > DecisionQuery.MAX_LIMIT) {
            throw new InvalidRequestException("limit", "must be in 1.." + DecisionQuery.MAX_LIMIT + ", was " + pageSize);
        }
        long after = parseMarker(marker);
        DecisionQuery q = new DecisionQuery(subject, kind == null ? null : kind.toLowerCase(), site,
                status == null ? null : status.toLowerCase(), instant("from", from), instant("to", to), after, pageSize + 1);
        List<DecisionRecord> rows = log.list(q);
        List<DecisionRecord> page = rows.size() > pageSize ? rows.subList(0, pageSize) : rows;
        String next = rows.size() > pageSize ? String.valueOf(page.getLast().seq()) : null;
        return new PageView(page.stream().map(Views::of).toList(), next);
    }

    private static long parseMarker(String marker) {
        if (marker == null || marker.isBlank()) {
            return 0;
        }
        try {
            return Long.parseLong(marker);
        } catch (NumberFormatException e) {
            throw new InvalidRequestException("marker", "is not a marker this API returned: " + marker);
        }
    }

    private static Instant instant(String field, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw new InvalidRequestException(field, "must be an ISO-8601 instant such as 2026-11-25T12:00:00Z, was " + value);
        }
    }
}
