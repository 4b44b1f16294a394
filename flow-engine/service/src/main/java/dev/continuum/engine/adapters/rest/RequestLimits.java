package dev.continuum.engine.adapters.rest;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.continuum.engine.config.ApiLimits;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;

/**
 * What one request, and one bearer token, may cost the engine — refused as RFC 9457 problems before any work is done:
 * <ul>
 *   <li>a body larger than {@code quarkus.http.limits.max-body-size} → 413 (Quarkus' own check, one step later,
 *       would answer an empty 413);
 *   <li>more requests with one bearer token than {@code continuum.api.rate-limit.*} allows → 429 with
 *       {@code Retry-After}. Counted per token, not per user: a person's CLI and browser are separate allowances,
 *       and a forged token costs its sender, not the person it names. Requests without a token are not counted:
 *       they are refused (401) or public, and cost no token check.
 * </ul>
 * Tokens are kept only as SHA-256 digests, in a bounded LRU map.
 */
@ApplicationScoped
public class RequestLimits {

    private static final Logger LOG = Logger.getLogger(RequestLimits.class);
    /** Before Quarkus' own body-size check (RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT = -2) and before authentication. */
    static final int ORDER = -300;

    private final ApiLimits.RateLimit rate;
    private final long maxBodyBytes;
    private final Cache<String, TokenBucket> buckets;

    public RequestLimits(ApiLimits limits, @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBody) {
        this.rate = limits.rateLimit();
        this.maxBodyBytes = maxBody.asLongValue();
        this.buckets = Caffeine.newBuilder().maximumSize(rate.trackedTokens())
                .expireAfterAccess(Duration.ofSeconds((long) Math.ceil(rate.burst() / rate.requestsPerSecond()) + 60)).build();
    }

    void limits(@Observes Router router) {
        router.route().order(ORDER).handler(this::check);
    }

    private void check(RoutingContext rc) {
        String length = rc.request().getHeader(HttpHeaders.CONTENT_LENGTH);
        if (length != null && tooLong(length)) {
            if (rc.request().version() != io.vertx.core.http.HttpVersion.HTTP_2) {
                rc.response().putHeader(HttpHeaders.CONNECTION, "close"); // the unread body must not be taken for the next request
            }
            refuse(rc.response(), 413, ProblemMappers.problemJson(413, "too-large",
                    "Request body too large", "The request body is " + length + " bytes; the limit is " + maxBodyBytes
                            + " bytes (quarkus.http.limits.max-body-size). Pass large data by reference (a path or URL) instead.",
                    "", "larger than " + maxBodyBytes + " bytes"), rc);
            return;
        }
        String authorization = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (rate.enabled() && authorization != null) {
            long now = System.nanoTime();
            long waitNanos = buckets.get(digest(authorization), key -> new TokenBucket(rate.burst(), rate.requestsPerSecond(), now)).take(now);
            if (waitNanos > 0) {
                long seconds = Math.max(1, (waitNanos + 999_999_999L) / 1_000_000_000L);
                rc.response().putHeader("Retry-After", Long.toString(seconds));
                refuse(rc.response(), 429, ProblemMappers.problemJson(429, "too-many-requests", "Too many requests",
                        "This token has sent more than " + rate.burst() + " requests at once or more than " + rate.requestsPerSecond()
                                + " a second for a while (continuum.api.rate-limit.*). Retry after " + seconds + " s.",
                        "/Authorization", "rate limit of this token exceeded"), rc);
                return;
            }
        }
        rc.next();
    }

    private boolean tooLong(String length) {
        try {
            return Long.parseLong(length.trim()) > maxBodyBytes;
        } catch (NumberFormatException e) {
            return false; // the HTTP codec refuses a malformed Content-Length itself
        }
    }

    private static void refuse(io.vertx.core.http.HttpServerResponse response, int status, String problem, RoutingContext rc) {
        LOG.debugf("refused %s %s: %d", rc.request().method(), rc.request().path(), status);
        response.setStatusCode(status).putHeader(HttpHeaders.CONTENT_TYPE, "application/problem+json").end(problem);
    }

    private static String digest(String authorization) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(authorization.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
