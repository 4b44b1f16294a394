package dev.continuum.engine.adapters.persistence;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

/**
 * One run's turn, ready to write: the state already serialised once, and the log as JSON objects
 * without the enclosing brackets (so many runs' rows join into one array without re-serialising).
 * Times are UTC offsets as the reactive client binds them; {@code active} is false for a finished run;
 * {@code listener} is the engine process to be told of some of its actions' finishes (RunStore.commit), or null.
 */
record RunCommit(UUID runId, String leaseOwner, OffsetDateTime basedOn, String state, String status, int logged,
                 OffsetDateTime nextWakeAt, OffsetDateTime now, OffsetDateTime leaseUntil, boolean active,
                 List<Long> consumedInbox, String logRows, String listener) {}
