package dev.continuum.deploy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;

/**
 * The engine's token-vault key for a local installation: 32 random bytes, base64, in {@code vault.key}
 * in the data dir, created once and readable by its owner only. Keeping it across starts is what lets
 * runs renew their stored grants after a restart (ADR 0005); losing it costs a new sign-in, never a secret.
 */
final class VaultKeyFile {

    static final String NAME = "vault.key";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private VaultKeyFile() {}

    /** The key in {@code dataDir/vault.key}, creating the file (mode 600) the first time. */
    static String loadOrCreate(Path dataDir) throws IOException {
        Path file = dataDir.resolve(NAME);
        if (!Files.exists(file)) {
            byte[] key = new byte[32];
            new SecureRandom().nextBytes(key);
            try {
                // Created with its final mode, so the key is never readable by others, not even for a moment.
                Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
                Files.writeString(file, Base64.getEncoder().encodeToString(key) + "\n", StandardCharsets.US_ASCII);
            } catch (FileAlreadyExistsException anotherUpWasFaster) {
                // use the one that won
            }
        }
        if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
            Files.setPosixFilePermissions(file, OWNER_ONLY);
        }
        String key = Files.readString(file, StandardCharsets.US_ASCII).trim();
        if (decodedLength(key) != 32) {
            throw new IOException(file + " does not hold a base64 32-byte key; move it away to have a new one made "
                    + "(runs will then ask their owners to sign in again)");
        }
        return key;
    }

    private static int decodedLength(String key) {
        try {
            return Base64.getDecoder().decode(key).length;
        } catch (IllegalArgumentException notBase64) {
            return -1;
        }
    }
}
