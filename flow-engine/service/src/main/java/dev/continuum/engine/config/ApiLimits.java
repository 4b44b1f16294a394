package dev.continuum.engine.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * How much one bearer token may ask of the API (docs/operations.md#request-limits). The body size limit is Quarkus'
 * own {@code quarkus.http.limits.max-body-size}; this mapping holds what Quarkus has no key for.
 */
@ConfigMapping(prefix = "continuum.api")
public interface ApiLimits {

    RateLimit rateLimit();

    /** A token bucket per bearer token: {@code burst} requests at once, refilled at {@code requests-per-second}. */
    interface RateLimit {

        /** Off only for load tests that drive the API harder than any person or instrument would. */
        @WithDefault("true")
        boolean enabled();

        @WithDefault("50")
        double requestsPerSecond();

        @WithDefault("500")
        int burst();

        /** Tokens remembered at once (least recently used forgotten first), so the limiter's own memory is bounded. */
        @WithDefault("100000")
        int trackedTokens();
    }
}
