package dev.continuum.provider.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.provider.server.Caller;
import dev.continuum.provider.server.CallerRejectedException;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.RSAPublicKeySpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Checks a provider's incoming bearer token: RS256 signature by the issuer's key, {@code iss},
 * {@code exp}/{@code nbf}, {@code aud} containing this provider's client id, and (optionally) a
 * required scope. A token the engine obtained for another provider carries that provider's
 * audience, so replaying it here is refused.
 *
 * <p>401 for a token that is missing or not valid for this provider; 403 for a valid token that
 * lacks the required scope (RFC 6750 §3.1).
 */
public final class JwtVerifier {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration KEY_REFRESH_PAUSE = Duration.ofSeconds(30);

    private final String issuer;
    private final String audience;
    private final Optional<String> requiredScope;
    private final Supplier<JsonNode> jwks;
    private final Clock clock;
    private final Duration clockSkew;
    private volatile Map<String, PublicKey> keys = Map.of();
    /**
     * Tokens whose signature was verified, with their claims and the key set they were verified under: the same token
     * (a run's token goes with each of its calls) is not verified again while that key set is the current one. Every
     * other check (issuer, expiry, audience, scope) is made on each call.
     */
    private final Map<String, Verified> verified = new ConcurrentHashMap<>();
    private volatile Instant keysFetchedAt = Instant.EPOCH;

    /**
     * @param jwks supplies the issuer's JSON Web Key Set ({@link Jwks#fetch}); called at start and again when an unknown key id appears
     */
    public JwtVerifier(String issuer, String audience, Optional<String> requiredScope, Supplier<JsonNode> jwks, Clock clock,
                       Duration clockSkew) {
        this.issuer = Objects.requireNonNull(issuer, "issuer");
        this.audience = Objects.requireNonNull(audience, "audience");
        this.requiredScope = Objects.requireNonNull(requiredScope, "requiredScope");
        this.jwks = Objects.requireNonNull(jwks, "jwks");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.clockSkew = Objects.requireNonNull(clockSkew, "clockSkew");
    }

    /** The caller named by a valid {@code Authorization} header value ({@code preferred_username}, else {@code sub}). */
    public Caller verify(String authorizationHeader) {
        if (authorizationHeader == null || authorizationHeader.isBlank()) {
            throw new CallerRejectedException(401, "A bearer token is required (Authorization: Bearer <token>).");
        }
        if (!authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            throw new CallerRejectedException(401, "Only 'Authorization: Bearer <token>' is accepted.");
        }
        JsonNode claims = verifiedClaims(authorizationHeader.substring(7).trim());
        Instant now = clock.instant();
        if (!issuer.equals(claims.path("iss").asText())) {
            throw new CallerRejectedException(401, "The token was issued by another identity provider.");
        }
        if (!claims.path("exp").isNumber() || Instant.ofEpochSecond(claims.path("exp").asLong()).plus(clockSkew).isBefore(now)) {
            throw new CallerRejectedException(401, "The token has expired.");
        }
        if (claims.path("nbf").isNumber() && Instant.ofEpochSecond(claims.path("nbf").asLong()).minus(clockSkew).isAfter(now)) {
            throw new CallerRejectedException(401, "The token is not valid yet.");
        }
        if (!audiences(claims).contains(audience)) {
            throw new CallerRejectedException(401, "The token is not meant for this provider (audience " + audience + ").");
        }
        if (requiredScope.isPresent() && !List.of(claims.path("scope").asText("").split("\\s+")).contains(requiredScope.get())) {
            throw new CallerRejectedException(403, "The token lacks the scope '" + requiredScope.get() + "'.");
        }
        String name = claims.path("preferred_username").asText(claims.path("sub").asText(""));
        if (name.isBlank()) {
            throw new CallerRejectedException(401, "The token names no subject.");
        }
        // Keycloak's realm roles: operator-only operations (training preempt/resize) check continuum-admin
        java.util.Set<String> roles = new java.util.HashSet<>();
        claims.path("realm_access").path("roles").forEach(r -> roles.add(r.asText()));
        return Caller.of(name, roles);
    }

    /**
     * Whether {@link #verify} of this header value might fetch the issuer's keys (a blocking call): only a signed
     * token whose key id is not loaded, once the pause between fetches is over. Anything malformed is refused without.
     */
    public boolean mayFetchKeys(String authorizationHeader) {
        if (authorizationHeader == null || !authorizationHeader.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        String token = authorizationHeader.substring(7).trim();
        int dot = token.indexOf('.');
        if (dot < 0) {
            return false;
        }
        String kid;
        try {
            kid = JSON.readTree(Base64.getUrlDecoder().decode(token.substring(0, dot))).path("kid").asText("");
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
        return !keys.containsKey(kid) && Duration.between(keysFetchedAt, clock.instant()).compareTo(KEY_REFRESH_PAUSE) > 0;
    }

    private record Verified(JsonNode claims, Map<String, PublicKey> keys) {}

    private static final int MAX_VERIFIED = 4096;

    private JsonNode verifiedClaims(String token) {
        Verified known = verified.get(token);
        if (known != null && known.keys() == keys) {
            return known.claims();
        }
        Map<String, PublicKey> current = keys;
        JsonNode claims = checkSignature(token);
        if (verified.size() >= MAX_VERIFIED) {
            verified.clear(); // bounded: the tokens in use are verified again once
        }
        verified.put(token, new Verified(claims, current));
        return claims;
    }

    private JsonNode checkSignature(String token) {
        String[] parts = token.split("\\.", -1);
        if (parts.length != 3) {
            throw new CallerRejectedException(401, "The bearer token is not a signed JWT.");
        }
        JsonNode header = decode(parts[0]);
        if (!"RS256".equals(header.path("alg").asText())) {
            throw new CallerRejectedException(401, "The token's signature algorithm is not accepted (RS256 only).");
        }
        PublicKey key = key(header.path("kid").asText(""));
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initVerify(key);
            rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
            if (!rsa.verify(Base64.getUrlDecoder().decode(parts[2]))) {
                throw new CallerRejectedException(401, "The token's signature does not match: it was altered or signed by someone else.");
            }
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new CallerRejectedException(401, "The token's signature cannot be checked.");
        }
        return decode(parts[1]);
    }

    private PublicKey key(String kid) {
        PublicKey key = keys.get(kid);
        if (key == null && Duration.between(keysFetchedAt, clock.instant()).compareTo(KEY_REFRESH_PAUSE) > 0) {
            refreshKeys();
            key = keys.get(kid);
        }
        if (key == null) {
            throw new CallerRejectedException(401, "The token was signed with a key this issuer does not publish.");
        }
        return key;
    }

    /** Loads the issuer's keys now (call once at start so the first request does not wait). */
    public synchronized void refreshKeys() {
        Map<String, PublicKey> found = new HashMap<>();
        for (JsonNode jwk : jwks.get().path("keys")) {
            if ("RSA".equals(jwk.path("kty").asText()) && !"enc".equals(jwk.path("use").asText())) {
                try {
                    BigInteger n = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.path("n").asText()));
                    BigInteger e = new BigInteger(1, Base64.getUrlDecoder().decode(jwk.path("e").asText()));
                    found.put(jwk.path("kid").asText(""), KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(n, e)));
                } catch (GeneralSecurityException | IllegalArgumentException ignored) {
                    // a key we cannot read cannot have signed a token we accept
                }
            }
        }
        keys = Map.copyOf(found);
        keysFetchedAt = clock.instant();
    }

    private static List<String> audiences(JsonNode claims) {
        JsonNode aud = claims.path("aud");
        if (aud.isTextual()) {
            return List.of(aud.asText());
        }
        return aud.isArray() ? java.util.stream.StreamSupport.stream(aud.spliterator(), false).map(JsonNode::asText).toList() : List.of();
    }

    private static JsonNode decode(String part) {
        try {
            return JSON.readTree(Base64.getUrlDecoder().decode(part));
        } catch (IOException | IllegalArgumentException e) {
            throw new CallerRejectedException(401, "The bearer token is not a well-formed JWT.");
        }
    }
}
