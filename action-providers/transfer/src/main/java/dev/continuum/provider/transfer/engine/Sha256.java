package dev.continuum.provider.transfer.engine;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256, the checksum of chunks and files. Chosen over faster non-JDK hashes (BLAKE3, xxHash)
 * because the JDK's implementation uses the CPU's SHA extensions where present (several GB/s per
 * core), it is what S3 and scientists' tools already report, and it needs no native library.
 */
public final class Sha256 {

    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    });

    private Sha256() {}

    /** Hex SHA-256 of the buffer's remaining bytes; the buffer's position is left unchanged. */
    public static String hex(ByteBuffer data) {
        MessageDigest md = DIGEST.get();
        md.reset();
        md.update(data.duplicate());
        return HexFormat.of().formatHex(md.digest());
    }

    /** A digest to feed incrementally (whole-file checksums). */
    public static MessageDigest fresh() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
