package dev.continuum.provider.transfer.engine;

import java.time.Duration;

/**
 * How the engine moves bytes.
 *
 * @param chunkBytes   size of one chunk (the unit of parallelism, verification and resume);
 *                     at least 5 MiB so that it is also a valid S3 multipart part
 * @param parallelism  chunks in flight at once
 * @param maxAttempts  tries per chunk (I/O error or checksum mismatch) before the transfer fails
 * @param retryBackoff wait before the second try; doubles each time
 * @param progressEvery how often progress is reported
 * @param maxBytesPerSecond bandwidth cap of one transfer (e.g. to spare an edge uplink); 0 for none
 */
public record TransferOptions(int chunkBytes, int parallelism, int maxAttempts, Duration retryBackoff,
                              Duration progressEvery, long maxBytesPerSecond) {

    public static final int MIN_CHUNK = 5 * 1024 * 1024;

    public TransferOptions {
        if (chunkBytes < MIN_CHUNK) {
            throw new IllegalArgumentException("chunkBytes must be at least 5 MiB (an S3 part), not " + chunkBytes);
        }
        if (parallelism < 1 || maxAttempts < 1) {
            throw new IllegalArgumentException("parallelism and maxAttempts must be at least 1");
        }
    }

    public static TransferOptions defaults() {
        return new TransferOptions(8 * 1024 * 1024, 4, 3, Duration.ofMillis(200), Duration.ofSeconds(1), 0);
    }

    public TransferOptions withChunkBytes(int value) {
        return new TransferOptions(value, parallelism, maxAttempts, retryBackoff, progressEvery, maxBytesPerSecond);
    }

    public TransferOptions withParallelism(int value) {
        return new TransferOptions(chunkBytes, value, maxAttempts, retryBackoff, progressEvery, maxBytesPerSecond);
    }

    public TransferOptions withProgressEvery(Duration value) {
        return new TransferOptions(chunkBytes, parallelism, maxAttempts, retryBackoff, value, maxBytesPerSecond);
    }

    public TransferOptions withMaxBytesPerSecond(long value) {
        return new TransferOptions(chunkBytes, parallelism, maxAttempts, retryBackoff, progressEvery, value);
    }
}
