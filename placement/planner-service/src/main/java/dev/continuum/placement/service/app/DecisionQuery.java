package dev.continuum.placement.service.app;

import java.time.Instant;

/**
 * A filter on the decision log; null fields do not filter. {@code subject} matches a request id or a run id;
 * {@code afterSeq} is the page marker (entries after it), {@code limit} the page size.
 */
public record DecisionQuery(String subject, String kind, String site, String status, Instant from, Instant to,
                            long afterSeq, int limit) {
    public static final int MAX_LIMIT = 1000;

    public DecisionQuery {
        if (limit < 1 || limit > MAX_LIMIT + 1) { // one more than a page tells whether another page follows
            throw new IllegalArgumentException("limit must be in 1.." + (MAX_LIMIT + 1));
        }
    }
}
