package dev.continuum.engine.app;

import com.fasterxml.jackson.databind.JsonNode;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.UUID;

/**
 * What the run use cases ask of the part that moves runs forward ({@link RunDriver}): take a run
 * just created, hand it an action's outcome, wake it for a cancel or resume.
 */
public interface Driver {

    /** Inbox tokens of the requests that travel like pushed outcomes (a provider's token never starts with "__"). */
    String CANCEL_TOKEN = "__cancel__";
    String RESUME_TOKEN = "__resume__";

    /** The lease owner a run created by this instance is inserted with when it has work at once. */
    String instanceId();

    /** Until when a lease taken now lasts. */
    Instant leaseUntil();

    /**
     * Drives a run this instance has just leased until {@code leaseUntil} (the value written with the lease);
     * {@code known} saves a read when the caller has it.
     */
    void launch(UUID runId, RunRecord known, Instant leaseUntil);

    /** Queues an action's final status for the run and wakes it; false when the run is unknown or finished. */
    Uni<Boolean> queue(UUID runId, String token, JsonNode status);

    /** Something arrived for a run: drive it now if nobody else is. */
    void nudge(UUID runId);
}
