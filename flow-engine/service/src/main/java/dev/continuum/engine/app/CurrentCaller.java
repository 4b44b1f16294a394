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

    /** The caller as the use cases see them; unrestricted only when authentication is off. */
    default Viewer viewer() {
        return Viewer.of(userId());
    }
}
