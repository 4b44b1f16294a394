package dev.continuum.engine.adapters.rest;

import dev.continuum.engine.app.CurrentCaller;
import dev.continuum.engine.app.RunRetention;
import dev.continuum.engine.domain.EngineError;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.extensions.Extension;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/** Retention of finished runs: what is kept, and a purge on request (docs/operations.md, "Retention"). */
@Path("/ops/retention")
@Produces(MediaType.APPLICATION_JSON)
public class RetentionResource {

    /** Exactly one of: an instant (RFC 3339), or a number of whole days before now. */
    public record PurgeBody(String finishedBefore, Integer olderThanDays) {}

    public record PurgeAnswer(int purged, String finishedBefore, String scope) {}

    public record Policy(String finishedRuns, String every) {}

    private final RunRetention retention;
    private final CurrentCaller caller;
    private final Clock clock;
    private final Duration every;

    public RetentionResource(RunRetention retention, CurrentCaller caller, Clock clock,
                             dev.continuum.engine.config.EngineConfig config) {
        this.retention = retention;
        this.caller = caller;
        this.clock = clock;
        this.every = config.retention().every();
    }

    @GET
    @Operation(summary = "How long finished runs are kept before they are purged (null: until purged on request)")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Policy policy() {
        return new Policy(retention.keep().map(Duration::toString).orElse(null), every.toString());
    }

    @POST
    @Path("/purge")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Release every finished run that finished before a time: the caller's own, or everyone's for an administrator")
    @Extension(name = OpenApiAccess.EXTENSION, value = "signed-in")
    public Uni<PurgeAnswer> purge(PurgeBody body) {
        // whose runs were purged is the use case's decision: the answer only reports it
        return retention.purge(cutoff(body), caller.viewer(), caller.administrator())
                .map(p -> new PurgeAnswer(p.runs(), p.finishedBefore().toString(),
                        p.owner().map(owner -> "runs owned by " + owner).orElse("all runs")));
    }

    private Instant cutoff(PurgeBody body) {
        if (body == null || (body.finishedBefore() == null) == (body.olderThanDays() == null)) {
            throw EngineError.invalidField("/finished_before", "give exactly one of finished_before (an RFC 3339 time) or older_than_days");
        }
        if (body.olderThanDays() != null) {
            if (body.olderThanDays() < 0) {
                throw EngineError.invalidField("/older_than_days", "a whole number of days, 0 or more");
            }
            return clock.instant().minus(Duration.ofDays(body.olderThanDays()));
        }
        try {
            return Instant.parse(body.finishedBefore());
        } catch (DateTimeParseException e) {
            throw EngineError.invalidField("/finished_before", "an RFC 3339 time such as 2026-11-01T00:00:00Z");
        }
    }
}
