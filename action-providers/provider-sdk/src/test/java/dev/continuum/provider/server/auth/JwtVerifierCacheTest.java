package dev.continuum.provider.server.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A token verified once is not verified again, but every check that depends on time or on the keys still holds. */
class JwtVerifierCacheTest {

    private static final String AUDIENCE = "continuum-provider-transfer";

    private volatile KeyPair published = JwtVerifierTest.KEYS;

    private JsonNode jwks() {
        RSAPublicKey pub = (RSAPublicKey) published.getPublic();
        ArrayNode keys = JwtVerifierTest.JSON.createArrayNode().add(JwtVerifierTest.JSON.createObjectNode().put("kid", "k1")
                .put("kty", "RSA").put("n", JwtVerifierTest.unsigned(pub.getModulus()))
                .put("e", JwtVerifierTest.unsigned(pub.getPublicExponent())));
        return JwtVerifierTest.JSON.createObjectNode().set("keys", keys);
    }

    private JwtVerifier verifier() {
        JwtVerifier verifier = new JwtVerifier(JwtVerifierTest.ISSUER, AUDIENCE, Optional.empty(), this::jwks,
                Clock.fixed(JwtVerifierTest.NOW, ZoneOffset.UTC), Duration.ofSeconds(30));
        verifier.refreshKeys();
        return verifier;
    }

    @Test
    void shouldCheckTheExpiryOfATokenWhoseSignatureWasVerifiedBefore() {
        JwtVerifier verifier = verifier();
        var expired = JwtVerifierTest.claims().put("exp", JwtVerifierTest.NOW.minus(Duration.ofMinutes(5)).getEpochSecond());
        String bearer = "Bearer " + JwtVerifierTest.token(expired); // well signed: its signature is verified, then kept

        JwtVerifierTest.assertRefused(() -> verifier.verify(bearer), 401);
        JwtVerifierTest.assertRefused(() -> verifier.verify(bearer), 401);
    }

    @Test
    void shouldRefuseATokenVerifiedBeforeOnceItsKeyIsNoLongerPublished() {
        JwtVerifier verifier = verifier();
        String bearer = "Bearer " + JwtVerifierTest.token(JwtVerifierTest.claims());
        assertThat(verifier.verify(bearer).id()).isEqualTo("scientist");

        published = JwtVerifierTest.OTHER_KEYS; // the issuer rotated its key under the same id
        verifier.refreshKeys();

        JwtVerifierTest.assertRefused(() -> verifier.verify(bearer), 401);
    }

    @Test
    void shouldStillRefuseATamperedCopyOfAVerifiedToken() {
        JwtVerifier verifier = verifier();
        String token = JwtVerifierTest.token(JwtVerifierTest.claims());
        verifier.verify("Bearer " + token);
        String[] parts = token.split("\\.");
        String tampered = parts[0] + "." + JwtVerifierTest.b64(JwtVerifierTest.claims().put("preferred_username", "admin").toString())
                + "." + parts[2];

        JwtVerifierTest.assertRefused(() -> verifier.verify("Bearer " + tampered), 401);
    }
}
