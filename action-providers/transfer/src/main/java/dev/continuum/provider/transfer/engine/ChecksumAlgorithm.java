package dev.continuum.provider.transfer.engine;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Locale;

/**
 * The hash that identifies verified chunks (journal, mismatch reports, checksum sync). Chosen per
 * transfer ({@code checksum_algorithm}); ADR 0010 explains the default.
 *
 * <p>A journal line keeps the algorithm with the hash ({@code blake3:...}; a bare hex value is
 * SHA-256, as journals written before BLAKE3 were), so a transfer resumed by a JVM with another
 * default still checks each chunk with the hash it was recorded with.
 */
public enum ChecksumAlgorithm {
    SHA256("sha256", "SHA-256"),
    BLAKE3("blake3", "BLAKE3");

    private final String id;
    private final String label;

    ChecksumAlgorithm(String id, String label) {
        this.id = id;
        this.label = label;
    }

    /** The request value: {@code sha256} or {@code blake3}. */
    public String id() {
        return id;
    }

    /** The name in status details and logs: {@code SHA-256}, {@code BLAKE3}. */
    public String label() {
        return label;
    }

    /**
     * BLAKE3 where this JVM runs it on vector lanes (about 3x the JDK's SHA-256 here); SHA-256 where it
     * does not (without {@code --add-modules jdk.incubator.vector}), because BLAKE3 one chunk at a time
     * is slower than the JDK's SHA-256 on the CPU's SHA extensions.
     */
    public static ChecksumAlgorithm defaultForThisJvm() {
        return Blake3.implementation().startsWith("vector") ? BLAKE3 : SHA256;
    }

    /** {@code sha256}/{@code SHA-256} or {@code blake3}, any case. */
    public static ChecksumAlgorithm parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT).replace("-", "");
        for (ChecksumAlgorithm a : values()) {
            if (a.id.equals(t)) {
                return a;
            }
        }
        throw new IllegalArgumentException("checksum_algorithm must be sha256 or blake3, not '" + text + "'");
    }

    /** Hex hash of the buffer's remaining bytes; its position is left unchanged. */
    public String hex(ByteBuffer data) {
        return switch (this) {
            case SHA256 -> Sha256.hex(data);
            case BLAKE3 -> HexFormat.of().formatHex(Blake3.hash(data));
        };
    }

    /**
     * Hex hash of {@code data}'s remaining bytes when {@code same}'s are equal to them, else null. BLAKE3
     * compares while hashing (one read of {@code data}); SHA-256 compares, then hashes.
     */
    public String hexIfEqual(ByteBuffer data, ByteBuffer same) {
        return switch (this) {
            case SHA256 -> data.mismatch(same) == -1 ? Sha256.hex(data) : null;
            case BLAKE3 -> {
                byte[] hash = Blake3.hashIfEqual(data, same);
                yield hash == null ? null : HexFormat.of().formatHex(hash);
            }
        };
    }

    /** The hash as the journal keeps it. */
    public String journalValue(String hex) {
        return this == SHA256 ? hex : id + ":" + hex;
    }

    /** The algorithm of a journal value. */
    public static ChecksumAlgorithm ofJournalValue(String value) {
        return value.startsWith(BLAKE3.id + ":") ? BLAKE3 : SHA256;
    }

    /** The hex part of a journal value. */
    public static String hexOfJournalValue(String value) {
        int colon = value.indexOf(':');
        return colon < 0 ? value : value.substring(colon + 1);
    }
}
