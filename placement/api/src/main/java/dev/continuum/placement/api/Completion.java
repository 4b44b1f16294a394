package dev.continuum.placement.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * {@code POST /placements/{id}/completion}: the job finished on {@code site} (null: where the log last placed it)
 * and what it took, in milliseconds, each term optional (null = not measured, so not learnt): the site's compute per
 * task, its queue, moving the input there, and the rest of the round trip.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Completion(String site, Long computeMillis, Long queuedMillis, Long transferMillis, Long overheadMillis) {

    /** A time the caller did not measure. */
    public static final long NOT_MEASURED = -1;

    /** The field names a completion may carry (anything else is refused). */
    public static final java.util.Set<String> FIELDS =
            java.util.Set.of("site", "computeMillis", "queuedMillis", "transferMillis", "overheadMillis");

    /** From times in milliseconds, {@link #NOT_MEASURED} left out and a negative one sent as 0. */
    public static Completion of(String site, long computeMillis, long queuedMillis, long transferMillis,
                                long overheadMillis) {
        return new Completion(site, measured(computeMillis), measured(queuedMillis), measured(transferMillis),
                measured(overheadMillis));
    }

    private static Long measured(long millis) {
        return millis == NOT_MEASURED ? null : Math.max(0, millis);
    }
}
