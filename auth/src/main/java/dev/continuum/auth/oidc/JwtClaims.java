package dev.continuum.auth.oidc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * The claims of a JWT read WITHOUT checking its signature. Only for tokens this process received
 * straight from the identity provider over TLS (e.g. to learn when to renew one); never to decide
 * whether to trust a token someone sent us — verify those (quarkus-oidc, JwtVerifier).
 */
public record JwtClaims(JsonNode json) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static JwtClaims readUnverified(String jwt) {
        String[] parts = jwt.split("\\.");
        if (parts.length != 3) {
            throw new IllegalArgumentException("not a signed JWT (expected three dot-separated parts)");
        }
        try {
            return new JwtClaims(JSON.readTree(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8)));
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("the JWT payload is not base64url JSON", e);
        }
    }

    public Optional<Instant> expiresAt() {
        return json.path("exp").isNumber() ? Optional.of(Instant.ofEpochSecond(json.path("exp").asLong())) : Optional.empty();
    }

    public String issuer() {
        return json.path("iss").asText(null);
    }

    public String subject() {
        return json.path("sub").asText(null);
    }

    public Optional<String> username() {
        return Optional.ofNullable(json.path("preferred_username").asText(null));
    }

    /** {@code aud} as a list whether it was a string or an array. */
    public List<String> audience() {
        JsonNode aud = json.path("aud");
        List<String> out = new ArrayList<>();
        if (aud.isTextual()) {
            out.add(aud.asText());
        } else if (aud.isArray()) {
            aud.forEach(a -> out.add(a.asText()));
        }
        return out;
    }

    public List<String> scopes() {
        String scope = json.path("scope").asText("");
        return scope.isBlank() ? List.of() : List.of(scope.trim().split("\\s+"));
    }
}
