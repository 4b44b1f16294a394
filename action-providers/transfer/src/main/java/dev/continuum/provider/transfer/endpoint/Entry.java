package dev.continuum.provider.transfer.endpoint;

import java.time.Instant;
import java.util.Objects;

/** One directory entry as a storage reports it. */
public record Entry(String name, Kind kind, long size, Instant modified) {

    public enum Kind { FILE, DIRECTORY, OTHER }

    public Entry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        modified = modified == null ? Instant.EPOCH : modified;
    }

    public boolean isDirectory() {
        return kind == Kind.DIRECTORY;
    }

    public boolean isFile() {
        return kind == Kind.FILE;
    }
}
