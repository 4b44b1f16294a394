package dev.continuum.engine.support;

import dev.continuum.engine.config.EngineConfig;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** The engine's defaults (EngineConfig) for unit tests that build engine parts without Quarkus. */
public record EngineSettings(String instance, Duration localFinishGrace) implements EngineConfig {

    public static final Duration LEASE = Duration.ofSeconds(30);
    public static final Duration POLL_MAX = Duration.ofMinutes(10);

    public EngineSettings(String instance) {
        this(instance, Duration.ofMillis(50));
    }

    @Override
    public Optional<String> selfUrl() {
        return Optional.of("http://engine.test");
    }

    @Override
    public Optional<String> tlsCaFile() {
        return Optional.empty();
    }

    @Override
    public Optional<String> instanceId() {
        return Optional.of(instance);
    }

    @Override
    public Retention retention() {
        return new Retention() {
            @Override public Optional<Duration> finishedRuns() { return Optional.empty(); }
            @Override public Duration every() { return Duration.ofHours(1); }
        };
    }

    @Override
    public Runs runs() {
        return new Runs() {
            @Override public Duration leaseDuration() { return LEASE; }
            @Override public Duration scanInterval() { return Duration.ofMillis(200); }
            @Override public int maxFlowDepth() { return 8; }
            @Override public int maxConcurrent() { return 256; }
            @Override public Duration pollInitial() { return Duration.ofSeconds(1); }
            @Override public Duration pollMax() { return POLL_MAX; }
            @Override public double pollBackoffRate() { return 2.0; }
            @Override public int maxStateBytes() { return 1_048_576; }
            @Override public int maxTransitionsPerTurn() { return 1000; }
            @Override public int maxTransitions() { return 25_000; }
            @Override public int transportAttempts() { return 5; }
            @Override public Duration localFinishGrace() { return localFinishGrace; }
            @Override public Duration providerReadTimeout() { return Duration.ofSeconds(30); }
        };
    }

    @Override
    public Db db() {
        throw new UnsupportedOperationException("no database in unit tests");
    }

    @Override
    public String localUser() {
        return "local:scientist";
    }

    @Override
    public Edge edge() {
        return new Edge() {
            @Override public Optional<String> broker() { return Optional.empty(); }
            @Override public String topicRoot() { return "continuum"; }
            @Override public Optional<String> username() { return Optional.empty(); }
            @Override public Optional<String> password() { return Optional.empty(); }
            @Override public Optional<String> caFile() { return Optional.empty(); }
            @Override public boolean tlsCheckServerName() { return true; }
        };
    }

    @Override
    public Optional<Keycloak> keycloak() {
        return Optional.empty();
    }

    @Override
    public Triggers triggers() {
        return () -> 64;
    }

    @Override
    public Notifications notifications() {
        return new Notifications() {
            @Override public boolean email() { return false; }
            @Override public Optional<String> webhookUrl() { return Optional.empty(); }
            @Override public Optional<String> webhookSecret() { return Optional.empty(); }
            @Override public int attempts() { return 5; }
            @Override public Duration backoff() { return Duration.ofSeconds(1); }
        };
    }

    @Override
    public Providers providers() {
        return new Providers() {
            @Override public Optional<List<String>> urlMap() { return Optional.empty(); }
            @Override public boolean builtinEnabled() { return false; }
            @Override public Optional<String> echoEffectsLog() { return Optional.empty(); }
            @Override public BuiltinActionStore builtinActionStore() { return BuiltinActionStore.DATABASE; }
            @Override public Duration callTimeout() { return Duration.ofSeconds(10); }
        };
    }
}
