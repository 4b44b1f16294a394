package dev.continuum.edge.protocol;

import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;

/**
 * An {@code input_ref}: {@code file:} followed by a path relative to the gateway's data directory,
 * e.g. {@code file:frames/frame-17.json}. The provider checks the syntax before it sends a task (a
 * bad one is a 400 naming {@code /body/input_ref}); the gateway checks it again and resolves it
 * under its data directory, refusing symlinks that lead out ({@link EndpointPath#resolveIn}).
 * Absolute paths are refused rather than re-rooted: a user who writes {@code file:///etc/x}
 * means a host path, and silently reading {@code <data>/etc/x} instead would surprise them.
 */
public final class InputRef {

    public static final String SCHEME = "file:";

    private InputRef() {}

    /** The confined path, or an {@link UnsafePathException} whose message says which rule refused it. */
    public static EndpointPath parse(String ref) {
        if (ref == null || !ref.startsWith(SCHEME)) {
            throw new UnsafePathException(ref, "input_ref must be 'file:' and a path relative to the gateway's "
                    + "data directory, e.g. file:frames/frame-1.json");
        }
        String path = ref.substring(SCHEME.length());
        if (path.startsWith("/") || path.startsWith("~")) {
            throw new UnsafePathException(ref, "absolute paths are not allowed: input_ref is relative to the "
                    + "gateway's data directory, e.g. file:frames/frame-1.json");
        }
        EndpointPath confined = PathNormalizer.normalize(path);
        if (confined.isRoot()) {
            throw new UnsafePathException(ref, "names the data directory itself, not a file");
        }
        return confined;
    }
}
