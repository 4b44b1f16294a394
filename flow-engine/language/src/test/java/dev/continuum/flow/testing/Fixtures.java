package dev.continuum.flow.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** The shared Globus flow fixtures ({@code shared/globus-flows} beside the repository), read in place. */
public final class Fixtures {

    public static final ObjectMapper JSON = new ObjectMapper();

    private Fixtures() {
    }

    /** The fixtures folder; skips the calling test when it is absent. */
    public static Path globusFlows() {
        Optional<Path> found = locate();
        Assumptions.assumeTrue(found.isPresent(), "shared/globus-flows not found beside the repository");
        return found.get();
    }

    public static Optional<Path> locate() {
        Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        while (dir != null) {
            Path candidate = dir.resolve("shared").resolve("globus-flows");
            if (Files.isDirectory(candidate)) {
                return Optional.of(candidate);
            }
            dir = dir.getParent();
        }
        return Optional.empty();
    }

    /** Flow definitions in a fixtures sub-folder (not their .schema.json / .input.json companions). */
    public static List<Path> flows(String folder) {
        Path dir = globusFlows().resolve(folder);
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.toString().endsWith(".json"))
                    .filter(f -> !f.toString().endsWith(".schema.json") && !f.toString().endsWith(".input.json"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static Optional<Path> companion(Path flow, String suffix) {
        Path candidate = flow.resolveSibling(flow.getFileName().toString().replace(".json", suffix));
        return Files.exists(candidate) ? Optional.of(candidate) : Optional.empty();
    }

    public static JsonNode read(Path file) {
        try {
            return JSON.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
