package dev.continuum.provider.transfer.path;

import dev.continuum.paths.EndpointPath;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.continuum.provider.transfer.endpoint.LocalStorage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fuzzes the normalizer and the local storage's resolution together. With JAZZER_FUZZ=1 Jazzer
 * explores new inputs, and its file-path-traversal sanitizer flags any file access that reaches
 * its sentinel {@code ../jazzer-traversal}; in a plain {@code mvn test} the seeds under
 * {@code src/test/resources/.../PathNormalizerFuzzTestInputs} are replayed as regression tests.
 */
class PathNormalizerFuzzTest {

    private static final Path ROOT = root();

    private static Path root() {
        try {
            return Files.createTempDirectory("fuzz-root").toRealPath();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static final LocalStorage STORAGE = new LocalStorage(ROOT);

    @FuzzTest(maxDuration = "30s")
    void normalizedPathsNeverLeaveTheRoot(byte[] data) throws IOException {
        // the same bytes read two ways: UTF-8 as a JSON body would carry them, and UTF-16, which
        // also reaches unpaired surrogates
        check(new String(data, StandardCharsets.UTF_8));
        check(new String(data, StandardCharsets.UTF_16BE));
    }

    private static void check(String raw) throws IOException {
        EndpointPath path;
        try {
            path = PathNormalizer.normalize(raw);
        } catch (UnsafePathException refused) {
            assertThat(refused.getMessage()).startsWith("path ");
            return;
        }
        Path resolved;
        try {
            resolved = STORAGE.resolve(path);
        } catch (UnsafePathException refused) {
            return;
        }
        assertThat(resolved.normalize().startsWith(ROOT)).as("%s stays under %s", resolved, ROOT).isTrue();
        assertThat(path.segments()).doesNotContain("..", ".", "");
        // touch the file system with the resolved path so the traversal sanitizer sees the access
        Files.exists(resolved);
    }
}
