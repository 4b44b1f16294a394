package dev.continuum.provider.builtin;

import dev.continuum.provider.server.ActionStore;
import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.ProviderServerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the built-in providers.
 *
 * @param effectsLog     file the echo provider appends {@code request_id<TAB>action_id} to, fsynced
 * @param callerResolver who is calling (anonymous until the auth module plugs in)
 * @param releasedRetention how long a released action keeps its request_id bound
 *                          ({@link ProviderServerOptions#releasedRetention()})
 * @param stores         where a provider, by name ({@link BuiltinProviders#NAMES}), keeps its actions; the others
 *                       keep them in memory. A provider whose effect is outside the process (notify's webhook) needs
 *                       a durable store shared by every engine, or a restart or a takeover that repeats its
 *                       request_id would find nothing and send again (ADR 0032)
 */
public record BuiltinOptions(Optional<Path> effectsLog, CallerResolver callerResolver, Duration releasedRetention,
                             Map<String, ActionStore> stores) {

    public BuiltinOptions {
        Objects.requireNonNull(effectsLog, "effectsLog");
        Objects.requireNonNull(callerResolver, "callerResolver");
        Objects.requireNonNull(releasedRetention, "releasedRetention");
        stores = Map.copyOf(stores);
    }

    public static BuiltinOptions defaults() {
        return new BuiltinOptions(Optional.empty(), CallerResolver.anonymous(), ProviderServerOptions.DEFAULT_RELEASED_RETENTION,
                Map.of());
    }

    public BuiltinOptions withEffectsLog(Path path) {
        return new BuiltinOptions(Optional.of(path), callerResolver, releasedRetention, stores);
    }

    public BuiltinOptions withCallerResolver(CallerResolver resolver) {
        return new BuiltinOptions(effectsLog, resolver, releasedRetention, stores);
    }

    public BuiltinOptions withReleasedRetention(Duration value) {
        return new BuiltinOptions(effectsLog, callerResolver, value, stores);
    }

    /** The provider {@code name} keeps its actions in {@code store} (e.g. a PostgreSQL one all engines share). */
    public BuiltinOptions withStore(String name, ActionStore store) {
        if (!BuiltinProviders.NAMES.contains(name)) {
            throw new IllegalArgumentException("no built-in provider " + name + "; there are " + BuiltinProviders.NAMES);
        }
        Map<String, ActionStore> more = new HashMap<>(stores);
        more.put(name, store);
        return new BuiltinOptions(effectsLog, callerResolver, releasedRetention, more);
    }
}
