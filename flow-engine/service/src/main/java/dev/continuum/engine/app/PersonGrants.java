package dev.continuum.engine.app;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * Offline grants people gave the engine, and which runs act through them (ADR 0005). Blocking, like
 * {@link SealedGrants}: every caller is on a worker thread for the identity provider's HTTP call anyway.
 */
public interface PersonGrants {

    /** One grant as stored; {@code sealed} is empty once revoked. */
    record Grant(UUID id, String person, Optional<byte[]> sealed, Instant createdAt, Optional<String> revokedBy,
                 Optional<Instant> revokedAt) {
        public boolean revoked() {
            return revokedBy.isPresent();
        }

        @Override
        public String toString() {
            return "Grant[" + id + ", " + person + ", ***]";
        }
    }

    /** A grant with the runs that act through it (GET /grants). */
    record Listed(Grant grant, List<UUID> runs) {}

    void save(UUID id, String person, byte[] sealed);

    /** The same grant sealed anew (a vault key rotation); nothing when it was revoked meanwhile. */
    void reseal(UUID id, byte[] sealed);

    /** The person's newest grant that is not revoked. */
    Optional<Grant> current(String person);

    Optional<Grant> find(UUID id);

    /** Marks the grant revoked and drops its sealed token; false when it is not the person's or already revoked. */
    boolean revoke(UUID id, String person, String by);

    List<Listed> list(String person);

    /** The run acts for its person through this grant from now on. */
    void link(UUID runId, UUID grantId);

    Optional<Grant> linkedTo(UUID runId);

    void unlink(UUID runId);
}
