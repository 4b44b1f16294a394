package dev.continuum.auth.oidc;

import java.time.Duration;
import java.util.Optional;

/**
 * What a token endpoint answered. Holds secrets: {@link #toString()} never prints them, so a
 * response that ends up in a log line or exception message leaks nothing.
 */
public record TokenResponse(String accessToken, Optional<String> refreshToken, Duration expiresIn,
                            Optional<Duration> refreshExpiresIn, String scope, String issuedTokenType) {

    @Override
    public String toString() {
        return "TokenResponse[accessToken=***, refreshToken=" + (refreshToken.isPresent() ? "***" : "none")
                + ", expiresIn=" + expiresIn + ", refreshExpiresIn=" + refreshExpiresIn.map(Duration::toString).orElse("none")
                + ", scope=" + scope + "]";
    }
}
