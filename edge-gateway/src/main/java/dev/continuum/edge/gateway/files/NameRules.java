package dev.continuum.edge.gateway.files;

import dev.continuum.edge.protocol.FileWatch;
import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.List;

/**
 * Which files a watch takes: those whose path under the watched directory matches its glob (so {@code *.tif}
 * takes only the directory's own files, {@code **}{@code /*.tif} its subdirectories' too), whose name matches none
 * of the ignore patterns (temporary suffixes such as {@code *.part}), and that are not themselves marker files.
 */
final class NameRules {

    private final PathMatcher glob;
    private final List<PathMatcher> ignore;
    private final String marker;

    NameRules(FileWatch watch) {
        this.glob = FileSystems.getDefault().getPathMatcher("glob:" + watch.glob());
        this.ignore = watch.ignore().stream().map(p -> FileSystems.getDefault().getPathMatcher("glob:" + p)).toList();
        this.marker = watch.markerMode() ? watch.marker() : null;
    }

    /** {@code relative}: the file's path under the watched directory. */
    boolean wanted(Path relative) {
        Path name = relative.getFileName();
        if (name == null || isMarker(name.toString())) {
            return false;
        }
        for (PathMatcher m : ignore) {
            if (m.matches(name)) {
                return false;
            }
        }
        return glob.matches(relative);
    }

    boolean isMarker(String name) {
        return marker != null && name.endsWith(marker);
    }

    /** A glob or ignore pattern Java cannot read; the cloud checks the same before it sends a watch. */
    static void check(FileWatch watch) {
        new NameRules(watch);
    }
}
