package dev.continuum.provider.transfer.engine;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * SHA-256 as the JDK computes it (with the CPU's SHA extensions where present): one of the two chunk
 * checksums ({@link ChecksumAlgorithm}), and the hash a gateway device answers for a chunk it holds.
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
