package dev.continuum.engine.app;

import java.util.Optional;
import java.util.UUID;

/**
 * Where a run's sealed refresh tokens live, by run, principal ("user", "flow", "role:NAME") and
 * provider audience (ADR 0005). Blocking: callers are already on a worker thread for the identity
 * provider's HTTP call, and a grant is read once per token lifetime.
 */
public interface SealedGrants {

    void save(UUID runId, String principal, String audience, byte[] sealed);

    Optional<byte[]> find(UUID runId, String principal, String audience);

    void forget(UUID runId);
}
