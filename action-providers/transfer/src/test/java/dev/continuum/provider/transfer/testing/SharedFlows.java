package dev.continuum.provider.transfer.testing;

import java.nio.file.Files;
import java.nio.file.Path;

/** The team's collection of real Globus flows, {@code ../shared/globus-flows/valid} beside the repository. */
public final class SharedFlows {

    private SharedFlows() {}

    /** The folder, or null when this checkout has no shared flows next to it. */
    public static Path valid() {
        for (Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolveSibling("shared").resolve("globus-flows/valid");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }
}
