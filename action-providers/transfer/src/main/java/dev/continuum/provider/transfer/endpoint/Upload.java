package dev.continuum.provider.transfer.endpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;

/**
 * A file being written chunk by chunk, possibly by several threads at once. Chunks may arrive in
 * any order; the file appears at its path only at {@link #commit}.
 */
public interface Upload extends AutoCloseable {

    /** Persisted in the transfer journal so a restarted provider continues this same upload. */
    String resumeToken();

    /** True when this upload continues partial data kept under the token it was opened with. */
    boolean resumed();

    /**
     * Stores chunk {@code index} (bytes {@code offset ..} of the file). Returns a receipt the
     * journal keeps with the chunk (an S3 part's ETag; empty for a file system).
     */
    String write(int index, long offset, ByteBuffer data) throws IOException;

    /**
     * Reads back what the destination now holds for a chunk, so the engine can verify it before
     * commit. Returns false when this storage cannot read before commit (S3 multipart): the engine
     * then verifies the committed file instead.
     */
    boolean readBack(long offset, ByteBuffer into) throws IOException;

    /**
     * The SHA-256 (hex) of what the destination now holds for a chunk, computed where the data lives,
     * for storages where reading the bytes back would cost a second trip over a slow link (a gateway).
     * Empty (the default) makes the engine use {@link #readBack} instead.
     */
    default java.util.Optional<String> hashBack(long offset, int length) throws IOException {
        return java.util.Optional.empty();
    }

    /**
     * Copies bytes {@code offset .. offset + length} of a local file to the same offset of this upload
     * without passing them through user space ({@code copy_file_range}, as {@code cp} does). False (the
     * default) when this storage cannot; the engine then reads and writes through a buffer.
     */
    default boolean copyFrom(java.nio.file.Path source, long offset, long length) throws IOException {
        return false;
    }

    /**
     * What the destination now holds for a chunk, mapped read-only into memory, so the engine can hash
     * and compare it without copying. Empty (the default) where the data is not a local file.
     */
    default java.util.Optional<java.nio.ByteBuffer> map(long offset, long length) throws IOException {
        return java.util.Optional.empty();
    }

    /** Makes the file visible at its path with the given modification time. */
    void commit(Instant modified, java.util.SortedMap<Integer, String> receipts) throws IOException;

    /** Gives up: removes the partial data. */
    void abort() throws IOException;

    /** Releases handles but keeps partial data for a later resume. */
    @Override
    void close() throws IOException;
}
