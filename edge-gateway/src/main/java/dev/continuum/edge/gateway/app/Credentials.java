package dev.continuum.edge.gateway.app;

import dev.continuum.edge.protocol.CredentialGrant;
import dev.continuum.edge.protocol.Registration;
import dev.continuum.edge.protocol.Wire;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.UUID;
import java.util.logging.Logger;

/**
 * Who the device is to the broker and the cloud (ADR 0011): it logs in with a configured password, else its
 * device credential, else its bootstrap token; while it has no credential it registers with the bootstrap token
 * and keeps the credential it is granted in {@code <stateDir>/device-credential}, so a restart needs no new one.
 */
final class Credentials {

    private static final Logger LOG = Logger.getLogger(Credentials.class.getName());

    private final String deviceId;
    private final String bootstrapToken;
    private final String brokerPassword;
    private final Path file;
    private final Runnable granted;
    private volatile String credential;
    private volatile String pendingNonce;

    /** {@code granted} runs after a new credential is kept (on the MQTT event loop: keep it short). */
    Credentials(GatewayConfig config, Runnable granted) {
        this.deviceId = config.deviceId();
        this.bootstrapToken = config.bootstrapToken();
        this.brokerPassword = config.brokerPassword();
        this.file = config.stateDir().resolve("device-credential");
        this.granted = granted;
        this.credential = read(file);
    }

    /** The device credential; null until the cloud grants one. */
    String current() {
        return credential;
    }

    Optional<String> credential() {
        return Optional.ofNullable(credential);
    }

    /** What the broker checks at every connect: a configured password, else our credential, else the bootstrap token. */
    String brokerPassword() {
        if (brokerPassword != null) {
            return brokerPassword;
        }
        String current = credential;
        return current != null ? current : bootstrapToken;
    }

    /**
     * The broker refused our login. When that was our credential (revoked one by one), the bootstrap
     * token gets us in again to register for a new one; a revoked device stays out either way.
     */
    void refused() {
        if (brokerPassword == null && credential != null && bootstrapToken != null) {
            LOG.warning(() -> deviceId + ": the broker refused the device credential; registering again with the bootstrap token");
            forget();
        } else {
            LOG.warning(() -> deviceId + ": the broker refused the login (revoked device or wrong password?)");
        }
    }

    /** Asks the cloud for a credential when we have none and the link is up; repeated until one is granted. */
    void registerIfNeeded(Uplink uplink) {
        if (credential != null || !uplink.connected()) {
            return;
        }
        if (bootstrapToken == null) {
            LOG.warning(() -> deviceId + " has neither a device credential nor a bootstrap token");
            return;
        }
        String nonce = UUID.randomUUID().toString();
        pendingNonce = nonce;
        uplink.registration(new Registration(deviceId, bootstrapToken, nonce));
    }

    /** The registrar's answer: kept when it grants and answers our latest registration, ignored otherwise. */
    void onGrant(byte[] payload) {
        CredentialGrant grant;
        try {
            grant = Wire.decode(payload, CredentialGrant.class);
        } catch (Wire.MalformedMessageException e) {
            return;
        }
        if (grant.nonce() == null || !grant.nonce().equals(pendingNonce)) {
            return; // an answer to an older attempt, or to someone else
        }
        if (!grant.granted()) {
            LOG.warning(() -> deviceId + " registration refused: " + grant.error());
            return;
        }
        credential = grant.deviceCredential();
        pendingNonce = null;
        write(credential);
        granted.run();
    }

    /** The cloud refused our credential (e.g. revoked): forget it and register again with the bootstrap token. */
    void forget() {
        credential = null;
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file).trim() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(String value) {
        try {
            Path tmp = file.resolveSibling("device-credential.tmp");
            Files.writeString(tmp, value);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
