package dev.continuum.paths;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A path inside an endpoint, already normalized and confined: segments never empty, never
 * {@code .} or {@code ..}, never containing {@code /}, NUL or control characters. The empty
 * path is the endpoint root. Only {@link PathNormalizer} and {@link #child} make them, so a
 * value of this type is safe to join to any root.
 */
public record EndpointPath(List<String> segments) {

    public static final EndpointPath ROOT = new EndpointPath(List.of());

    public EndpointPath {
        segments = List.copyOf(Objects.requireNonNull(segments, "segments"));
    }

    /** Appends one directory entry name as listed by a storage (re-checked, so a hostile listing cannot escape). */
    public EndpointPath child(String name) {
        String checked = PathNormalizer.checkSegment(name, name);
        List<String> longer = new ArrayList<>(segments.size() + 1);
        longer.addAll(segments);
        longer.add(checked);
        return new EndpointPath(longer);
    }

    public boolean isRoot() {
        return segments.isEmpty();
    }

    public String name() {
        return isRoot() ? "" : segments.get(segments.size() - 1);
    }

    public EndpointPath parent() {
        return isRoot() ? this : new EndpointPath(segments.subList(0, segments.size() - 1));
    }

    /**
     * This path under {@code realRoot} (a root already passed through {@code toRealPath()}), refusing
     * any existing component that is a symlink resolving outside the root or not at all.
     */
    public Path resolveIn(Path realRoot) throws IOException {
        Path current = realRoot;
        for (String segment : segments) {
            current = current.resolve(segment);
            if (Files.isSymbolicLink(current)) {
                Path target;
                try {
                    target = current.toRealPath();
                } catch (NoSuchFileException dangling) {
                    throw new UnsafePathException(toString(), "a symlink on the path does not resolve");
                }
                if (!target.startsWith(realRoot)) {
                    throw new UnsafePathException(toString(), "a symlink on the path leads outside the endpoint");
                }
                current = target;
            }
        }
        return current;
    }

    /** Segments joined with {@code /}, no leading slash; {@code ""} for the root. */
    public String relative() {
        return String.join("/", segments);
    }

    /** As a user sees it: {@code /a/b}, {@code /} for the root. */
    @Override
    public String toString() {
        return "/" + relative();
    }
}
