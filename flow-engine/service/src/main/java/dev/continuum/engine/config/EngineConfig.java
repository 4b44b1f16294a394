package dev.continuum.engine.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Every engine knob in one place; each has a default that suits a single laptop. */
@ConfigMapping(prefix = "continuum")
public interface EngineConfig {

    /** Base URL under which this engine is reachable by providers (push callbacks, built-in providers). */
    Optional<String> selfUrl();

    /**
     * PEM CA file ({@code CONTINUUM_TLS_CA_FILE}) the engine's HTTPS clients trust besides the JVM's CAs: providers and
     * the planner behind certificates of a private CA (docs/operations.md "Encrypted links").
     */
    Optional<String> tlsCaFile();

    /** Stable name of this instance in leases; defaults to a random one per process. */
    Optional<String> instanceId();

    Runs runs();

    /** How long finished runs are kept (docs/operations.md, "Retention"). */
    Retention retention();

    interface Retention {
        /** A finished run is purged once it finished longer ago than this (e.g. 30d); absent: kept until purged on request. */
        Optional<Duration> finishedRuns();

        /** How often each instance purges what has expired. */
        @WithDefault("1h")
        Duration every();
    }

    Db db();

    /**
     * Not the engine's: continuum.keycloak.* (zip, start-timeout-s) are read by auth's KeycloakServer, which
     * tests start; the build passes them as system properties. Listed so this mapping, which owns the
     * "continuum" prefix, accepts them.
     */
    Optional<Keycloak> keycloak();

    interface Keycloak {
        Optional<String> zip();

        Optional<String> startTimeoutS();
    }

    /**
     * The identity every request acts as when API authentication is off ({@code continuum.auth.enabled=false},
     * a dev-only escape hatch); with it on, the caller is the bearer token's user (adapters/auth/TokenCaller).
     */
    @WithDefault("local:scientist")
    String localUser();

    /** Where PostgreSQL is; quarkus.datasource.* URLs are built from these (application.properties). */
    interface Db {
        String host();

        int port();

        String name();

        String user();

        Optional<String> password();
    }

    Providers providers();

    /** The MQTT broker the edge gateways use; file triggers (docs/triggers.md#file) need it. */
    Edge edge();

    interface Edge {
        /**
         * host:port of the edge broker ({@code mqtts://host:port}: MQTT over TLS); without it, file triggers are
         * refused (400).
         */
        Optional<String> broker();

        /** PEM CA file an {@code mqtts://} broker's certificate must chain to; none: the JVM's trust store. */
        Optional<String> caFile();

        /** Whether an {@code mqtts://} broker's certificate must name the host the engine connects to. */
        @WithDefault("true")
        boolean tlsCheckServerName();

        /** The gateways' topic root (their --topic-root). */
        @WithDefault("continuum")
        String topicRoot();

        /** Login at the broker (the embedded broker's operator, _continuum, with its broker password). */
        Optional<String> username();

        Optional<String> password();
    }

    /** Triggers fed by a message broker (docs/triggers.md, docs/operations.md#triggers-from-a-message-broker). */
    Triggers triggers();

    interface Triggers {
        /**
         * Broker messages one channel handles at once; later ones wait in the engine, in arrival order, until a slot
         * frees, and the broker sends no more than its per-client in-flight window (Mosquitto's
         * max_inflight_messages; set it to this) until acks come.
         */
        @WithDefault("64")
        int maxInFlight();
    }

    /** Run notices (Globus' activity_notification_policy); docs/operations.md#notifications. */
    Notifications notifications();

    interface Notifications {
        /** Send notices by e-mail through the SMTP server that quarkus.mailer.* (host, port, from, ...) names. */
        @WithDefault("false")
        boolean email();

        /** POST each notice as JSON here, signed with {@link #webhookSecret()}; none when absent. */
        Optional<String> webhookUrl();

        /** HMAC-SHA256 key for the X-Continuum-Signature header; required with a webhook URL. */
        Optional<String> webhookSecret();

        /** Delivery attempts per notice and channel before it is given up (logged). */
        @WithDefault("5")
        int attempts();

        /** Wait before the first retry; it doubles per attempt. */
        @WithDefault("1s")
        Duration backoff();
    }

    interface Runs {
        /** How long an instance owns a run it is driving before others may take it over. */
        @WithDefault("30s")
        Duration leaseDuration();

        /** How often each instance looks for runs whose timers or polls are due. */
        @WithDefault("200ms")
        Duration scanInterval();

        /**
         * How many flow calls deep a run may be: a child run started by an Action state naming a flow lies one parent
         * link below its parent (FlowDepthExceeded beyond). A flow calling itself is refused before that (FlowCycleRefused).
         */
        @WithDefault("8")
        int maxFlowDepth();

        /** Runs driven at the same time by one instance. */
        @WithDefault("256")
        int maxConcurrent();

        @WithDefault("1s")
        Duration pollInitial();

        /** Cap on the exponential backoff between status polls of an ACTIVE action. */
        @WithDefault("10m")
        Duration pollMax();

        @WithDefault("2.0")
        double pollBackoffRate();

        /** Largest run state document (bytes of JSON); beyond it the run fails with a clear error. */
        @WithDefault("1048576")
        int maxStateBytes();

        /**
         * States one interpreter call may enter before the run is committed and continued in a later turn,
         * so a flow that loops through Pass and Choice states cannot hold the engine or the caller.
         */
        @WithDefault("1000")
        int maxTransitionsPerTurn();

        /** States a run may enter in its life (retries included); beyond, it fails with States.TransitionLimitExceeded. */
        @WithDefault("25000")
        int maxTransitions();

        /** Attempts of a provider call that failed in transport before the action is reported unable to run. */
        @WithDefault("5")
        int transportAttempts();

        /**
         * How long a drive keeps a run's lease after starting an in-process (built-in) action that answered ACTIVE, waiting
         * for its finish: a quick one (a short sleep) is then taken without a claim; after this the lease is let go. 0 turns
         * the wait off.
         */
        @WithDefault("50ms")
        Duration localFinishGrace();

        /** How long a provider may leave a call unanswered before the call fails in transport (and is tried again). */
        @WithDefault("30s")
        Duration providerReadTimeout();
    }

    interface Providers {
        /**
         * Rewrites of ActionUrls, "prefix=>target" pairs; the longest matching prefix wins.
         * A target "builtin:echo" names a built-in provider served by this engine.
         * Lets real Globus flows run unchanged against Continuum's own providers.
         */
        Optional<List<String>> urlMap();

        /** Serve the built-in providers (echo, sleep, expression, notify) under /providers. */
        @WithDefault("true")
        boolean builtinEnabled();

        /** Append one line per new echo action here (used by crash tests to count effects). */
        Optional<String> echoEffectsLog();

        /**
         * Where echo, sleep and expression keep their actions: {@code database} (shared by every engine, so a
         * takeover or restart that repeats a request_id gets the same action) or {@code memory} (this process only:
         * about half the engine CPU of a run made of built-ins, for benchmarks and single-engine set-ups). Notify,
         * whose webhook is an effect outside the engine, always keeps its actions in the database.
         */
        @WithDefault("database")
        BuiltinActionStore builtinActionStore();

        @WithDefault("10s")
        Duration callTimeout();
    }

    /** Where the built-in providers without an outside effect keep their actions. */
    enum BuiltinActionStore { DATABASE, MEMORY }
}
