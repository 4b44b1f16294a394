package dev.continuum.edge.fleet.identity;

import dev.continuum.edge.protocol.Topics;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Issues and checks the two credentials of the edge link, both HMAC-SHA256 (JDK {@link Mac}) under
 * secrets only the cloud holds:
 * <ul>
 *   <li>a <b>bootstrap token</b>, printed by an operator for one device id and put on the device
 *       at install time: {@code HMAC(bootstrapKey, "bootstrap:" + deviceId)};</li>
 *   <li>a <b>device credential</b>, exchanged for it at registration:
 *       {@code v1.<deviceId>.<issuedEpochSeconds>.<credentialId>.<mac>}.</li>
 * </ul>
 * Revoking a device refuses its current credential and its bootstrap token until reinstated; with
 * {@link #persistRevocations} revocations are kept on disk and survive a restart.
 * This is the interim identity until the Keycloak issue gives devices service-account clients.
 */
public final class DeviceCredentials {

    private static final String PREFIX = "v1";
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final byte[] signingKey;
    private final byte[] bootstrapKey;
    private final Clock clock;
    private final SecureRandom random = new SecureRandom();
    private final Set<String> revokedDevices = ConcurrentHashMap.newKeySet();
    private final Set<String> revokedCredentialIds = ConcurrentHashMap.newKeySet();
    private volatile RevocationLog log;

    public DeviceCredentials(byte[] signingKey, byte[] bootstrapKey, Clock clock) {
        if (signingKey.length < 32 || bootstrapKey.length < 32) {
            throw new IllegalArgumentException("HMAC keys must be at least 32 bytes");
        }
        this.signingKey = signingKey.clone();
        this.bootstrapKey = bootstrapKey.clone();
        this.clock = clock;
    }

    /** Keys derived from one operator secret (distinct per purpose, so one MAC never passes as the other). */
    public static DeviceCredentials fromSecret(String secret, Clock clock) {
        byte[] root = secret.getBytes(StandardCharsets.UTF_8);
        return new DeviceCredentials(hmac(root, "continuum-device-credential"), hmac(root, "continuum-bootstrap"), clock);
    }

    /**
     * The MQTT password of the cloud's own clients on a broker Continuum starts (ADR 0011), derived
     * from the operator secret so the secret itself never crosses the wire.
     */
    public static String brokerPassword(String secret) {
        return B64.encodeToString(hmac(secret.getBytes(StandardCharsets.UTF_8), "continuum-mqtt-operator"));
    }

    /**
     * Keeps revocations in {@code revocations} from now on, starting from what it already holds, so
     * they survive a restart. Returns this.
     */
    public DeviceCredentials persistRevocations(RevocationLog revocations) {
        this.log = revocations;
        reloadRevocations();
        return this;
    }

    /** Re-reads the revocation log when another process (an operator's {@code --revoke-device}) appended to it. */
    public void reloadRevocations() {
        RevocationLog current = log;
        if (current == null) {
            return;
        }
        RevocationLog.Revoked r = current.read();
        revokedDevices.addAll(r.devices());
        revokedDevices.retainAll(r.devices());
        revokedCredentialIds.addAll(r.credentialIds());
    }

    /** The devices revoked now (a copy). */
    public Set<String> revokedDevices() {
        return Set.copyOf(revokedDevices);
    }

    public String bootstrapToken(String deviceId) {
        Topics.checkId(deviceId);
        return B64.encodeToString(hmac(bootstrapKey, "bootstrap:" + deviceId));
    }

    /** True when {@code bootstrapToken} is the device's genuine token and the device is not revoked. */
    public boolean acceptsBootstrap(String deviceId, String bootstrapToken) {
        if (deviceId == null || bootstrapToken == null || revokedDevices.contains(deviceId)) {
            return false;
        }
        try {
            Topics.checkId(deviceId);
        } catch (IllegalArgumentException e) {
            return false;
        }
        return constantTimeEquals(bootstrapToken(deviceId), bootstrapToken);
    }

    /** Exchanges a valid bootstrap token for a fresh device credential. */
    public Optional<String> exchange(String deviceId, String bootstrapToken) {
        if (!acceptsBootstrap(deviceId, bootstrapToken)) {
            return Optional.empty();
        }
        byte[] id = new byte[12];
        random.nextBytes(id);
        String payload = PREFIX + "." + deviceId + "." + clock.instant().getEpochSecond() + "." + HexFormat.of().formatHex(id);
        return Optional.of(payload + "." + B64.encodeToString(hmac(signingKey, payload)));
    }

    /** The device the credential was issued to, when it is genuine and not revoked. */
    public Optional<String> verify(String credential) {
        if (credential == null) {
            return Optional.empty();
        }
        String[] parts = credential.split("\\.");
        if (parts.length != 5 || !parts[0].equals(PREFIX)) {
            return Optional.empty();
        }
        String payload = String.join(".", parts[0], parts[1], parts[2], parts[3]);
        if (!constantTimeEquals(B64.encodeToString(hmac(signingKey, payload)), parts[4])) {
            return Optional.empty();
        }
        if (revokedDevices.contains(parts[1]) || revokedCredentialIds.contains(parts[3])) {
            return Optional.empty();
        }
        return Optional.of(parts[1]);
    }

    /** True when {@code credential} is genuine, current, and was issued to {@code deviceId}. */
    public boolean verifyFor(String deviceId, String credential) {
        return verify(credential).filter(deviceId::equals).isPresent();
    }

    /** Refuses the device's credentials and bootstrap token from now on. */
    public void revokeDevice(String deviceId) {
        logRevocation("device", deviceId);
        revokedDevices.add(deviceId);
    }

    /** Lets a revoked device register again (with its bootstrap token); old credentials stay refused if revoked one by one. */
    public void reinstateDevice(String deviceId) {
        logRevocation("reinstate", deviceId);
        revokedDevices.remove(deviceId);
    }

    /** Refuses one credential (e.g. a leaked one) while the device may register for a new one. */
    public void revokeCredential(String credential) {
        String[] parts = credential.split("\\.");
        if (parts.length == 5) {
            logRevocation("credential", parts[3]);
            revokedCredentialIds.add(parts[3]);
        }
    }

    /** On disk before it takes effect, when revocations are persisted. */
    private void logRevocation(String kind, String value) {
        RevocationLog current = log;
        if (current != null) {
            current.append(kind, value);
        }
    }

    private static boolean constantTimeEquals(String a, String b) {
        return MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(byte[] key, String message) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(message.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }
}
