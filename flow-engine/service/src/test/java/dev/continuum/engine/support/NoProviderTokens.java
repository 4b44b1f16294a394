package dev.continuum.engine.support;

import dev.continuum.engine.app.ProviderTokens;
import io.smallrye.mutiny.Uni;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/** Authentication off, for unit tests: no token for any provider; counts the runs whose grants were dropped. */
public final class NoProviderTokens implements ProviderTokens {

    public final AtomicInteger forgotten = new AtomicInteger();

    @Override
    public Uni<Void> delegate(UUID runId, Optional<String> userToken, Map<String, String> roleTokens, Collection<Call> calls) {
        return Uni.createFrom().voidItem();
    }

    @Override
    public Uni<Optional<String>> bearer(UUID runId, String actionUrl, String runAs) {
        return Uni.createFrom().item(Optional.empty());
    }

    @Override
    public Uni<Void> forget(UUID runId) {
        forgotten.incrementAndGet();
        return Uni.createFrom().voidItem();
    }
}
