package dev.continuum.cli.signin;

import com.fasterxml.jackson.annotation.JsonProperty;

import java.time.Instant;
import java.util.Optional;

/**
 * A person's sign-in as the CLI keeps it between commands: the tokens from the identity provider and
 * when they run out. Holds secrets: {@link #toString()} never prints them.
 */
public record SignIn(@JsonProperty("issuer") String issuer,
                     @JsonProperty("client_id") String clientId,
                     @JsonProperty("username") String username,
                     @JsonProperty("access_token") String accessToken,
                     @JsonProperty("access_expires_at") Instant accessExpiresAt,
                     @JsonProperty("refresh_token") Optional<String> refreshToken,
                     @JsonProperty("refresh_expires_at") Optional<Instant> refreshExpiresAt) {

    /** True when the access token is gone or about to go; a call made with it could be refused halfway. */
    public boolean accessExpiresBefore(Instant moment) {
        return !accessExpiresAt.isAfter(moment);
    }

    @Override
    public String toString() {
        return "SignIn[" + username + " at " + issuer + ", accessToken=***, refreshToken=" + (refreshToken.isPresent() ? "***" : "none") + "]";
    }
}
