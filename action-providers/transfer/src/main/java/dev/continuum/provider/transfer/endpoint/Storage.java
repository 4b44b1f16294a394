package dev.continuum.provider.transfer.endpoint;

import dev.continuum.paths.EndpointPath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * What the transfer engine needs from a storage root: a directory on a file system, an
 * S3-compatible bucket, or (through the edge gateway) a device's local storage. Paths are
 * already confined {@link EndpointPath}s; an implementation that can follow links must still
 * refuse one leading outside its root. Implementations are called from several threads at once.
 */
public interface Storage {

    /** The entry at {@code path}, or empty when there is none. */
    Optional<Entry> stat(EndpointPath path) throws IOException;

    /** The direct children of a directory, sorted by name. */
    List<Entry> list(EndpointPath dir) throws IOException;

    /** Creates the directory and its missing parents (a no-op where directories are implicit). */
    void mkdirs(EndpointPath dir) throws IOException;

    /** Deletes a file, or a directory (its contents too only when {@code recursive}); false when absent. */
    boolean delete(EndpointPath path, boolean recursive) throws IOException;

    /**
     * Reads up to {@code into.remaining()} bytes of a file from {@code offset}, stopping early only
     * at the end of the file; returns the number of bytes read.
     */
    int read(EndpointPath file, long offset, ByteBuffer into) throws IOException;

    /**
     * Starts (or, with the token a previous upload of the same file returned, continues) writing
     * a file of {@code size} bytes that will carry the source's {@code modified} time. Nothing is visible at {@code file} before {@link Upload#commit}.
     */
    Upload openUpload(EndpointPath file, long size, Instant modified, String resumeToken) throws IOException;

    /**
     * The file on this machine that holds {@code file}, when this storage is a local directory: the
     * engine then copies it in the kernel ({@link Upload#copyFrom}) and verifies through mappings.
     */
    default Optional<java.nio.file.Path> localFile(EndpointPath file) throws IOException {
        return Optional.empty();
    }

    /** Short words for logs: {@code directory /srv/data}, {@code s3 bucket/prefix}. */
    String describe();
}
