package dev.continuum.auth.vault;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Seals secrets (refresh and offline tokens) for storage with AES-256-GCM. Each sealed value is
 * bound to a context string (e.g. {@code run:<id>/aud:<client>}) as associated data, so a ciphertext
 * copied to another run or audience does not open. Layout: version byte 2, the sealing key's 4-byte id (the start of
 * the SHA-256 of the key), 12-byte nonce, ciphertext+tag; values of version 1 (no key id) still open.
 * <p>
 * Rotation: a vault has one current key, which seals, and any number of previous keys, which only open — so values
 * sealed before a rotation keep opening while the engine seals them anew with the current key as it uses them
 * ({@link #shouldSealAgain}). Without previous keys the vault writes version 1, which engines from before key ids
 * open too, so a rolling upgrade to this version loses no grant; during a rotation it writes version 2. See
 * docs/decisions/0005-token-storage.md and docs/operations.md.
 */
public final class TokenVault {

    private static final byte FORMAT_WITHOUT_KEY_ID = 1;
    private static final byte FORMAT = 2;
    private static final int KEY_ID_BYTES = 4;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;

    private record Key(SecretKey secret, int id) {
        static Key of(byte[] raw) {
            if (raw.length != 32) {
                throw new IllegalArgumentException("the vault key must be 32 bytes (AES-256), got " + raw.length);
            }
            try {
                return new Key(new SecretKeySpec(raw, "AES"), ByteBuffer.wrap(MessageDigest.getInstance("SHA-256").digest(raw)).getInt());
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException("SHA-256 is unavailable in this JVM", e);
            }
        }
    }

    private final Key current;
    private final List<Key> previous;
    private final SecureRandom random = new SecureRandom();

    private TokenVault(byte[] key, List<byte[]> previousKeys) {
        this.current = Key.of(key);
        this.previous = previousKeys.stream().map(Key::of).filter(k -> k.id() != current.id()).toList();
    }

    private TokenVault(byte[] key) {
        this(key, List.of());
    }

    /**
     * A vault sealing with {@code base64} and also opening what was sealed with any of {@code previousBase64}: the
     * keys before a rotation, kept until nothing sealed with them is left (docs/operations.md).
     */
    public static TokenVault fromBase64Keys(String base64, List<String> previousBase64) {
        TokenVault currentOnly = fromBase64Key(base64);
        List<byte[]> previousKeys = new ArrayList<>();
        for (String old : previousBase64) {
            try {
                previousKeys.add(decode(old));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a previous vault key (continuum.auth.vault-previous-keys) is not base64");
            }
        }
        return new TokenVault(currentOnly.current.secret().getEncoded(), previousKeys);
    }

    /** A vault whose key is the base64 (standard or url-safe) of 32 random bytes: {@code openssl rand -base64 32}. */
    public static TokenVault fromBase64Key(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalArgumentException("no vault key configured (continuum.auth.vault-key); generate one with: openssl rand -base64 32");
        }
        byte[] raw;
        try {
            raw = decode(base64);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the vault key is not base64; generate one with: openssl rand -base64 32");
        }
        return new TokenVault(raw);
    }

    private static byte[] decode(String base64) {
        String trimmed = base64.trim();
        return trimmed.contains("-") || trimmed.contains("_") ? Base64.getUrlDecoder().decode(trimmed) : Base64.getDecoder().decode(trimmed);
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
            cipher.init(Cipher.ENCRYPT_MODE, current.secret(), new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            if (previous.isEmpty()) {
                return ByteBuffer.allocate(1 + NONCE_BYTES + sealed.length).put(FORMAT_WITHOUT_KEY_ID).put(nonce).put(sealed).array();
            }
            return ByteBuffer.allocate(1 + KEY_ID_BYTES + NONCE_BYTES + sealed.length).put(FORMAT).putInt(current.id())
                    .put(nonce).put(sealed).array();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES-GCM is unavailable in this JVM", e);
        }
    }

    /** @throws VaultException when the value was sealed with a key this vault does not hold or for another context, or was altered */
    public String open(byte[] sealed, String context) {
        if (sealed != null && sealed.length >= 1 + KEY_ID_BYTES + NONCE_BYTES + TAG_BITS / 8 && sealed[0] == FORMAT) {
            int keyId = ByteBuffer.wrap(sealed, 1, KEY_ID_BYTES).getInt();
            Key key = keys().filter(k -> k.id() == keyId).findFirst().orElseThrow(() -> new VaultException(
                    "the sealed value was sealed with a key this vault does not hold (a previous key no longer configured?)"));
            return open(key, sealed, 1 + KEY_ID_BYTES, context);
        }
        if (sealed != null && sealed.length >= 1 + NONCE_BYTES + TAG_BITS / 8 && sealed[0] == FORMAT_WITHOUT_KEY_ID) {
            VaultException last = null;
            for (Key key : keys().toList()) {
                try {
                    return open(key, sealed, 1, context);
                } catch (VaultException e) {
                    last = e;
                }
            }
            throw last;
        }
        throw new VaultException("not a sealed value of this vault's format");
    }

    /**
     * During a rotation (previous keys configured), whether the value is not yet sealed with the current key — sealing
     * it again lets the previous keys be retired. Always false outside a rotation.
     */
    public boolean shouldSealAgain(byte[] sealed) {
        return !previous.isEmpty() && !(sealed != null && sealed.length > KEY_ID_BYTES && sealed[0] == FORMAT
                && ByteBuffer.wrap(sealed, 1, KEY_ID_BYTES).getInt() == current.id());
    }

    private java.util.stream.Stream<Key> keys() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(current), previous.stream());
    }

    private static String open(Key key, byte[] sealed, int nonceAt, String context) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.DECRYPT_MODE, key.secret(), new GCMParameterSpec(TAG_BITS, sealed, nonceAt, NONCE_BYTES));
            cipher.updateAAD(context.getBytes(StandardCharsets.UTF_8));
            byte[] plain = cipher.doFinal(sealed, nonceAt + NONCE_BYTES, sealed.length - nonceAt - NONCE_BYTES);
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
