package dev.continuum.engine.app.triggers;

import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** A webhook trigger's signing secrets, sealed at rest; the newest {@link #ACTIVE} are accepted. */
public interface WebhookSecrets {

    /** Two: the sender moves to a new secret while requests signed with the previous one still pass. */
    int ACTIVE = 2;

    /** Adds a secret and drops all but the newest {@link #ACTIVE}. */
    Uni<Void> add(UUID triggerId, String secretId, String secret, Instant createdAt);

    /** The active secrets in plain, newest first (to check a signature; never logged or returned). */
    Uni<List<String>> active(UUID triggerId);
}
