package dev.continuum.engine.app;

import java.net.URI;
import java.util.UUID;

/**
 * How a person gives the engine offline access and takes it back (ADR 0005). Blocking: the identity provider is
 * called over HTTP.
 */
public interface OfflineAccess {

    /** Where the person's browser signs in and consents; it comes back to {@code redirectUri} with a code. */
    URI beginConsent(String person, String redirectUri);

    /** Turns the code of a consent this engine began into the person's grant; answers the grant's id. */
    UUID completeConsent(String state, String code);

    /** Revokes the person's grant here and at the identity provider; false when the person holds no such active grant. */
    boolean revoke(UUID grantId, String person);
}
