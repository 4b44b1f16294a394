package dev.continuum.provider.server;

import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.OpenTelemetry;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How a provider is served.
 *
 * @param vertx              runs timers, workers and the callback client
 * @param store              where actions are kept (a fresh {@link InMemoryActionStore} by default)
 * @param callerResolver     who is calling ({@link CallerResolver#anonymous()} by default)
 * @param clock              source of start/completion times
 * @param callbackAttempts   how often a push callback is tried before giving up (the engine still polls)
 * @param callbackBackoff    delay before the first retry; doubles each time
 * @param releaseSweep       how often finished actions past their release_after are forgotten
 * @param maxBodyBytes       largest accepted request body
 * @param telemetry          where the provider's spans go: one server span per request, a child of the caller's
 *                           {@code traceparent}; {@link GlobalOpenTelemetry} by default (a no-op unless the process
 *                           installs an SDK, as {@link ProviderLauncher#serve} does when configured: docs/operations.md "Traces")
 * @param releasedRetention  how long a released action keeps its request_id bound, so that a late repeat of its /run
 *                           (e.g. from an engine turn that outlived its lease) answers the released action instead of
 *                           starting a second one; {@link #DEFAULT_RELEASED_RETENTION} by default, zero frees the
 *                           request_id at release (docs/action-provider-api.md "Release")
 */
public record ProviderServerOptions(Vertx vertx, ActionStore store, CallerResolver callerResolver, Clock clock,
                                    int callbackAttempts, Duration callbackBackoff, Duration releaseSweep,
                                    long maxBodyBytes, OpenTelemetry telemetry, Duration releasedRetention) {

    /** Ten minutes: twenty engine leases of the default 30 s, far beyond any call still in flight after a release. */
    public static final Duration DEFAULT_RELEASED_RETENTION = Duration.ofMinutes(10);

    public ProviderServerOptions {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(callerResolver, "callerResolver");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(callbackBackoff, "callbackBackoff");
        Objects.requireNonNull(releaseSweep, "releaseSweep");
        Objects.requireNonNull(telemetry, "telemetry");
        Objects.requireNonNull(releasedRetention, "releasedRetention");
        if (releasedRetention.isNegative()) {
            throw new IllegalArgumentException("releasedRetention must not be negative");
        }
        if (callbackAttempts < 1) {
            throw new IllegalArgumentException("callbackAttempts must be at least 1");
        }
    }

    public static ProviderServerOptions of(Vertx vertx) {
        return new ProviderServerOptions(vertx, new InMemoryActionStore(), CallerResolver.anonymous(),
                Clock.systemUTC(), 5, Duration.ofMillis(500), Duration.ofMinutes(1), 10L * 1024 * 1024,
                GlobalOpenTelemetry.get(), DEFAULT_RELEASED_RETENTION);
    }

    public ProviderServerOptions withStore(ActionStore value) {
        return new ProviderServerOptions(vertx, value, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry, releasedRetention);
    }

    public ProviderServerOptions withCallerResolver(CallerResolver value) {
        return new ProviderServerOptions(vertx, store, value, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry, releasedRetention);
    }

    public ProviderServerOptions withClock(Clock value) {
        return new ProviderServerOptions(vertx, store, callerResolver, value, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry, releasedRetention);
    }

    public ProviderServerOptions withCallbackRetries(int attempts, Duration firstBackoff) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, attempts, firstBackoff,
                releaseSweep, maxBodyBytes, telemetry, releasedRetention);
    }

    public ProviderServerOptions withMaxBodyBytes(long value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, value, telemetry, releasedRetention);
    }

    public ProviderServerOptions withReleaseSweep(Duration value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                value, maxBodyBytes, telemetry, releasedRetention);
    }

    /** Spans of this provider's requests go to {@code value}'s tracer. */
    public ProviderServerOptions withTelemetry(OpenTelemetry value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, value, releasedRetention);
    }

    /** How long a released action keeps its request_id bound; zero frees it at release. */
    public ProviderServerOptions withReleasedRetention(Duration value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry, value);
    }
}
