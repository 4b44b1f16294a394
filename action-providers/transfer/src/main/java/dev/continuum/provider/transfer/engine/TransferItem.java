package dev.continuum.provider.transfer.engine;

import dev.continuum.paths.EndpointPath;
import java.util.Objects;

/**
 * One source path to copy to one destination path. {@code recursive} null means "as the source
 * is": a directory is copied with its contents, a file as a file.
 */
public record TransferItem(EndpointPath source, EndpointPath destination, Boolean recursive) {
    public TransferItem {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(destination, "destination");
    }
}
