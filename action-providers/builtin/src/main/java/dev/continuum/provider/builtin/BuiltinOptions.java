package dev.continuum.provider.builtin;

import dev.continuum.provider.server.CallerResolver;
import dev.continuum.provider.server.ProviderServerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the built-in providers.
 *
 * @param effectsLog     file the echo provider appends {@code request_id<TAB>action_id} to, fsynced
 * @param callerResolver who is calling (anonymous until the auth module plugs in)
 * @param releasedRetention how long a released action keeps its request_id bound
 *                          ({@link ProviderServerOptions#releasedRetention()})
 */
public record BuiltinOptions(Optional<Path> effectsLog, CallerResolver callerResolver, Duration releasedRetention) {

    public BuiltinOptions {
        Objects.requireNonNull(effectsLog, "effectsLog");
        Objects.requireNonNull(callerResolver, "callerResolver");
        Objects.requireNonNull(releasedRetention, "releasedRetention");
    }

    public static BuiltinOptions defaults() {
        return new BuiltinOptions(Optional.empty(), CallerResolver.anonymous(), ProviderServerOptions.DEFAULT_RELEASED_RETENTION);
    }

    public BuiltinOptions withEffectsLog(Path path) {
        return new BuiltinOptions(Optional.of(path), callerResolver, releasedRetention);
    }

    public BuiltinOptions withCallerResolver(CallerResolver resolver) {
        return new BuiltinOptions(effectsLog, resolver, releasedRetention);
    }

    public BuiltinOptions withReleasedRetention(Duration value) {
        return new BuiltinOptions(effectsLog, callerResolver, value);
    }
}
