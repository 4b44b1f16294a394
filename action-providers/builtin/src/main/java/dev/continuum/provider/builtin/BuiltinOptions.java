package dev.continuum.provider.builtin;

import dev.continuum.provider.server.CallerResolver;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the built-in providers.
 *
 * @param effectsLog     file the echo provider appends {@code request_id<TAB>action_id} to, fsynced
 * @param callerResolver who is calling (anonymous until the auth module plugs in)
 */
public record BuiltinOptions(Optional<Path> effectsLog, CallerResolver callerResolver) {

    public BuiltinOptions {
        Objects.requireNonNull(effectsLog, "effectsLog");
        Objects.requireNonNull(callerResolver, "callerResolver");
    }

    public static BuiltinOptions defaults() {
        return new BuiltinOptions(Optional.empty(), CallerResolver.anonymous());
    }

    public BuiltinOptions withEffectsLog(Path path) {
        return new BuiltinOptions(Optional.of(path), callerResolver);
    }

    public BuiltinOptions withCallerResolver(CallerResolver resolver) {
        return new BuiltinOptions(effectsLog, resolver);
    }
}
