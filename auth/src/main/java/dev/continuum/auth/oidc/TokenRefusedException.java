package dev.continuum.auth.oidc;

/**
 * The identity provider refused to issue a token. {@link #error()} is the OAuth error code
 * ({@code invalid_grant} when the user's session or consent is gone and they must sign in again).
 */
public final class TokenRefusedException extends RuntimeException {

    private final int httpStatus;
    private final String error;

    public TokenRefusedException(int httpStatus, String error, String description) {
        super(error + (description == null || description.isBlank() ? "" : ": " + description), null, false, false);
        this.httpStatus = httpStatus;
        this.error = error;
    }

    public int httpStatus() {
        return httpStatus;
    }

    public String error() {
        return error;
    }

    /** True when only the person can fix this by signing in again (revoked, expired or logged-out grant). */
    public boolean needsSignIn() {
        return "invalid_grant".equals(error) || "invalid_token".equals(error) || "consent_required".equals(error);
    }
}
