package dev.continuum.provider.training.provider;

import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The directories checkpoints and models may go to. A location is an absolute path below one of
 * them, or a relative path taken below the first; what is below is checked by the endpoint paths'
 * rules ({@link PathNormalizer}: no {@code ..}, no control or look-alike characters) and symlinks
 * may not lead out ({@link EndpointPath#resolveIn}).
 */
public record AllowedRoots(List<Path> roots) {
    public AllowedRoots {
        if (roots.isEmpty()) {
            throw new IllegalArgumentException("at least one allowed root");
        }
        roots = roots.stream().map(r -> r.toAbsolutePath().normalize()).toList();
    }

    /** The confined absolute path, created if missing; throws {@link UnsafePathException} saying why not. */
    public Path confine(String location) throws IOException {
        for (Path root : roots) {
            String prefix = root.toString();
            String rest = !location.startsWith("/") && root.equals(roots.getFirst()) ? location
                    : location.equals(prefix) ? "" : location.startsWith(prefix + "/") ? location.substring(prefix.length() + 1)
                    : null;
            if (rest != null) {
                Files.createDirectories(root);
                Path realRoot = root.toRealPath();
                Path p = PathNormalizer.normalize(rest).resolveIn(realRoot);
                Files.createDirectories(p);
                if (!p.toRealPath().startsWith(realRoot)) {
                    throw new UnsafePathException(location, "leads outside the allowed roots");
                }
                return p.toRealPath();
            }
        }
        throw new UnsafePathException(location, "is outside the allowed roots " + roots);
    }
}
