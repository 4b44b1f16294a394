package dev.continuum.engine.app.triggers;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Webhook request signing (docs/triggers.md): {@code X-Continuum-Signature: sha256=<hex>} is HMAC-SHA256 with a
 * trigger secret over {@code <X-Continuum-Timestamp> + "." + <raw body>}, the Stripe/Slack scheme: the timestamp
 * inside the MAC bounds a captured request to the tolerance, and the delivery id (the dedup key) refuses it within.
 */
public final class WebhookSignature {

    public static final Duration TOLERANCE = Duration.ofMinutes(5);
    public static final String PREFIX = "sha256=";

    private WebhookSignature() {}

    /** Why the request is refused, or empty when one of the active secrets signed it within the tolerance. */
    public static Optional<String> refusal(List<String> secrets, String timestamp, String signature, byte[] body, Instant now) {
        if (timestamp == null || signature == null) {
            return Optional.of("X-Continuum-Timestamp and X-Continuum-Signature are required");
        }
        long seconds;
        try {
            seconds = Long.parseLong(timestamp.trim());
        } catch (NumberFormatException e) {
            return Optional.of("X-Continuum-Timestamp must be Unix seconds");
        }
        if (Duration.between(Instant.ofEpochSecond(seconds), now).abs().compareTo(TOLERANCE) > 0) {
            return Optional.of("X-Continuum-Timestamp is more than " + TOLERANCE.toMinutes() + " minutes from the engine's clock");
        }
        byte[] given;
        try {
            given = HexFormat.of().parseHex(signature.trim().startsWith(PREFIX) ? signature.trim().substring(PREFIX.length()) : "");
        } catch (IllegalArgumentException e) {
            return Optional.of("X-Continuum-Signature must be sha256=<hex>");
        }
        for (String secret : secrets) {
            if (MessageDigest.isEqual(mac(secret, timestamp.trim(), body), given)) {
                return Optional.empty();
            }
        }
        return Optional.of("the signature matches none of the trigger's active secrets");
    }

    /** {@code sha256=<hex>} for a body: what a sender puts in X-Continuum-Signature. */
    public static String sign(String secret, String timestamp, byte[] body) {
        return PREFIX + HexFormat.of().formatHex(mac(secret, timestamp, body));
    }

    private static byte[] mac(String secret, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(body);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
