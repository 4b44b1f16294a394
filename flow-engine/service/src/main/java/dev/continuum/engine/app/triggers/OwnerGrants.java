package dev.continuum.engine.app.triggers;

import dev.continuum.engine.app.RunService;
import dev.continuum.engine.app.Viewer;
import io.smallrye.mutiny.Uni;

import java.util.Optional;
import java.util.UUID;

/**
 * A trigger starts runs long after its owner signed in: it keeps the owner's delegated grant (sealed, like a
 * run's) and turns it into the credentials a run start needs — or, bound by an administrator to the engine's trigger
 * service account, starts them as that account. With authentication off there is nothing to keep.
 */
public interface OwnerGrants {

    /** Keeps a renewable grant made from the owner's current token (create, and update by the owner). */
    Uni<Void> keep(UUID triggerId, Optional<String> ownerToken);

    /** The owner's credentials for one run start, renewed from the kept grant. */
    Uni<RunService.Credentials> credentials(UUID triggerId);

    /** Whom the run start sees: the owner, under the same access rules as a person starting it. */
    Viewer starter(String ownerId);

    Uni<Void> forget(UUID triggerId);

    /**
     * The user name of the service account an administrator may bind triggers to, when this engine has one
     * ({@code continuum.auth.trigger-client-id}; Keycloak names a client's service account {@code service-account-<client>}).
     */
    Optional<String> serviceAccount();

    /** The service account's credentials for one run start: a fresh client-credentials token, no person's session. */
    Uni<RunService.Credentials> serviceAccountCredentials();
}
