package dev.continuum.provider.server.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.server.CallerRejectedException;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Token checks a provider applies, with tokens signed by a key made in the test (the Keycloak path is in auth/). */
class JwtVerifierTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String ISSUER = "http://127.0.0.1:8180/realms/continuum";
    static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
    static final KeyPair KEYS = rsa();
    static final KeyPair OTHER_KEYS = rsa();

    final JwtVerifier transfer = verifier("continuum-provider-transfer", Optional.of("actions:transfer"));

    @Test
    void shouldNameTheCallerOfAValidToken() {
        assertThat(transfer.verify("Bearer " + token(claims()))).satisfies(c -> assertThat(c.id()).isEqualTo("scientist"));
    }

    @Test
    void shouldRefuseAMissingToken() {
        assertRefused(() -> transfer.verify(null), 401);
    }

    @Test
    void shouldRefuseATokenForAnotherProvider() {
        ObjectNode claims = claims().put("aud", "continuum-provider-builtin");

        assertRefused(() -> transfer.verify("Bearer " + token(claims)), 401);
    }

    @Test
    void shouldRefuseAnExpiredToken() {
        ObjectNode claims = claims().put("exp", NOW.minus(Duration.ofMinutes(5)).getEpochSecond());

        assertRefused(() -> transfer.verify("Bearer " + token(claims)), 401);
    }

    @Test
    void shouldRefuseATokenFromAnotherIssuer() {
        ObjectNode claims = claims().put("iss", "http://127.0.0.1:8180/realms/elsewhere");

        assertRefused(() -> transfer.verify("Bearer " + token(claims)), 401);
    }

    @Test
    void shouldRefuseATamperedToken() {
        String[] parts = token(claims()).split("\\.");
        String altered = Base64.getUrlEncoder().withoutPadding().encodeToString(
                claims().put("preferred_username", "admin").toString().getBytes(StandardCharsets.UTF_8));

        assertRefused(() -> transfer.verify("Bearer " + parts[0] + "." + altered + "." + parts[2]), 401);
    }

    @Test
    void shouldRefuseATokenSignedWithAnotherKey() {
        assertRefused(() -> transfer.verify("Bearer " + token(claims(), OTHER_KEYS)), 401);
    }

    @Test
    void shouldRefuseAnUnsignedToken() {
        String header = b64("{\"alg\":\"none\",\"kid\":\"k1\"}");

        assertRefused(() -> transfer.verify("Bearer " + header + "." + b64(claims().toString()) + "."), 401);
    }

    @Test
    void shouldForbidAValidTokenWithoutTheProvidersScope() {
        ObjectNode claims = claims().put("scope", "profile email");

        assertRefused(() -> transfer.verify("Bearer " + token(claims)), 403);
    }

    static void assertRefused(Runnable call, int status) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(CallerRejectedException.class,
                e -> assertThat(e.httpStatus()).isEqualTo(status));
    }

    static JwtVerifier verifier(String audience, Optional<String> scope) {
        RSAPublicKey pub = (RSAPublicKey) KEYS.getPublic();
        ObjectNode jwk = JSON.createObjectNode().put("kid", "k1").put("kty", "RSA").put("alg", "RS256").put("use", "sig")
                .put("n", unsigned(pub.getModulus())).put("e", unsigned(pub.getPublicExponent()));
        JsonNode jwks = JSON.createObjectNode().set("keys", JSON.createArrayNode().add(jwk));
        JwtVerifier verifier = new JwtVerifier(ISSUER, audience, scope, () -> jwks, Clock.fixed(NOW, ZoneOffset.UTC), Duration.ofSeconds(30));
        verifier.refreshKeys();
        return verifier;
    }

    static ObjectNode claims() {
        ObjectNode claims = JSON.createObjectNode().put("iss", ISSUER).put("sub", "a2273").put("preferred_username", "scientist")
                .put("exp", NOW.plus(Duration.ofMinutes(5)).getEpochSecond()).put("iat", NOW.getEpochSecond())
                .put("scope", "profile actions:transfer");
        claims.putArray("aud").add("continuum-provider-transfer");
        return claims;
    }

    static String token(ObjectNode claims) {
        return token(claims, KEYS);
    }

    static String token(ObjectNode claims, KeyPair keys) {
        try {
            String signingInput = b64("{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"k1\"}") + "." + b64(claims.toString());
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(keys.getPrivate());
            rsa.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(rsa.sign());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String b64(String json) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    static String unsigned(BigInteger value) {
        byte[] bytes = value.toByteArray();
        if (bytes[0] == 0) {
            bytes = java.util.Arrays.copyOfRange(bytes, 1, bytes.length);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    static KeyPair rsa() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
