package dev.continuum.auth.vault;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Seals secrets (refresh and offline tokens) for storage with AES-256-GCM. Each sealed value is
 * bound to a context string (e.g. {@code run:<id>/aud:<client>}) as associated data, so a ciphertext
 * copied to another run or audience does not open. Layout: version byte, 12-byte nonce, ciphertext+tag.
 * See docs/decisions/0005-token-storage.md.
 */
public final class TokenVault {

    private static final byte FORMAT = 1;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private final SecretKey key;
    private final SecureRandom random = new SecureRandom();

    private TokenVault(byte[] key) {
        if (key.length != 32) {
            throw new IllegalArgumentException("the vault key must be 32 bytes (AES-256), got " + key.length);
        }
        this.key = new SecretKeySpec(key, "AES");
    }

    /** A vault whose key is the base64 (standard or url-safe) of 32 random bytes: {@code openssl rand -base64 32}. */
    public static TokenVault fromBase64Key(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalArgumentException("no vault key configured (continuum.auth.vault-key); generate one with: openssl rand -base64 32");
        }
        String trimmed = base64.trim();
        byte[] raw;
        try {
            raw = trimmed.contains("-") || trimmed.contains("_") ? Base64.getUrlDecoder().decode(trimmed) : Base64.getDecoder().decode(trimmed);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the vault key is not base64; generate one with: openssl rand -base64 32");
        }
        return new TokenVault(raw);
    }

    /** A vault with a random key that lives only as long as this process (dev mode: secrets do not survive restarts). */
    public static TokenVault ephemeral() {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        return new TokenVault(raw);
    }

    public static String newBase64Key() {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        return Base64.getEncoder().encodeToString(raw);
    }

    public byte[] seal(String secret, String context) {
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(FORMAT).put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable in this JVM", e);
        }
    }

    /** @throws VaultException when the value was sealed with another key or context, or was altered */
    public String open(byte[] sealed, String context) {
        if (sealed == null || sealed.length < 1 + NONCE_BYTES + TAG_BITS / 8 || sealed[0] != FORMAT) {
            throw new VaultException("not a sealed value of this vault's format");
        }
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, sealed, 1, NONCE_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(sealed, 1 + NONCE_BYTES, sealed.length - 1 - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            throw new VaultException("the sealed value does not open with this key and context (other key, other run, or altered)");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable in this JVM", e);
        }
    }

    /** Never prints the key. */
    @Override
    public String toString() {
        return "TokenVault[AES-256-GCM]";
    }

    public static final class VaultException extends RuntimeException {
        public VaultException(String message) {
            super(message, null, false, false);
        }
    }
}
