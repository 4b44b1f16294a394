package dev.continuum.engine.app;

/**
 * Who is calling: the user named by the verified bearer token (adapters/auth/TokenCaller), or the
 * configured local user when API authentication is off.
 */
public interface CurrentCaller {
    String userId();

    /** The caller's own access token (to exchange for provider tokens); empty with authentication off. */
    default java.util.Optional<String> accessToken() {
        return java.util.Optional.empty();
    }

    /**
     * Where the caller reads e-mail: the token's {@code email} claim, else the user name when it is an address
     * (a local user named ada@example.org); empty when unknown.
     */
    default java.util.Optional<String> email() {
        String id = userId();
        return id != null && id.matches("[^@\\s:]+@[^@\\s]+\\.[^@\\s]+") ? java.util.Optional.of(id) : java.util.Optional.empty();
    }

    /**
     * Whether the caller administers this Continuum (the identity provider's realm role {@code continuum-admin}); with
     * authentication off the one local user does.
     */
    default boolean administrator() {
        return false;
    }

    /** The caller as the use cases see them; unrestricted only when authentication is off. */
    default Viewer viewer() {
        return Viewer.of(userId());
    }
}
