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
 *                           installs an SDK, docs/operations.md "Traces")
 */
public record ProviderServerOptions(Vertx vertx, ActionStore store, CallerResolver callerResolver, Clock clock,
                                    int callbackAttempts, Duration callbackBackoff, Duration releaseSweep,
                                    long maxBodyBytes, OpenTelemetry telemetry) {

    public ProviderServerOptions {
        Objects.requireNonNull(vertx, "vertx");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(callerResolver, "callerResolver");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(callbackBackoff, "callbackBackoff");
        Objects.requireNonNull(releaseSweep, "releaseSweep");
        Objects.requireNonNull(telemetry, "telemetry");
        if (callbackAttempts < 1) {
            throw new IllegalArgumentException("callbackAttempts must be at least 1");
        }
    }

    public static ProviderServerOptions of(Vertx vertx) {
        return new ProviderServerOptions(vertx, new InMemoryActionStore(), CallerResolver.anonymous(),
                Clock.systemUTC(), 5, Duration.ofMillis(500), Duration.ofMinutes(1), 10L * 1024 * 1024,
                GlobalOpenTelemetry.get());
    }

    public ProviderServerOptions withStore(ActionStore value) {
        return new ProviderServerOptions(vertx, value, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry);
    }

    public ProviderServerOptions withCallerResolver(CallerResolver value) {
        return new ProviderServerOptions(vertx, store, value, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry);
    }

    public ProviderServerOptions withClock(Clock value) {
        return new ProviderServerOptions(vertx, store, callerResolver, value, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, telemetry);
    }

    public ProviderServerOptions withCallbackRetries(int attempts, Duration firstBackoff) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, attempts, firstBackoff,
                releaseSweep, maxBodyBytes, telemetry);
    }

    public ProviderServerOptions withMaxBodyBytes(long value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, value, telemetry);
    }

    public ProviderServerOptions withReleaseSweep(Duration value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                value, maxBodyBytes, telemetry);
    }

    /** Spans of this provider's requests go to {@code value}'s tracer. */
    public ProviderServerOptions withTelemetry(OpenTelemetry value) {
        return new ProviderServerOptions(vertx, store, callerResolver, clock, callbackAttempts, callbackBackoff,
                releaseSweep, maxBodyBytes, value);
    }
}
