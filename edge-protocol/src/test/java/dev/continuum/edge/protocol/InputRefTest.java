package dev.continuum.edge.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.continuum.paths.UnsafePathException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An input_ref can only name a file inside the gateway's data directory, and says why when it cannot. */
class InputRefTest {

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "file:frames/frame-1.json | frames/frame-1.json",
            "file:./frames//frame-1.json | frames/frame-1.json",
            "file:frame.json | frame.json"})
    void shouldAcceptAPathRelativeToTheDataDirectory(String ref, String relative) {
        assertThat(InputRef.parse(ref).relative()).isEqualTo(relative);
    }

    @ParameterizedTest(name = "{0} refused: {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "file:../secret.json | '..' segments are not allowed",
            "file:frames/../../secret.json | '..' segments are not allowed",
            "file:///etc/passwd | absolute paths are not allowed",
            "file:/etc/passwd | absolute paths are not allowed",
            "file://other-host/x.json | absolute paths are not allowed",
            "file:~/x.json | absolute paths are not allowed",
            "file:%2e%2e/secret.json | percent-encoded",
            "file:frames%2f..%2fx | percent-encoded",
            "file:..\\secret.json | backslash",
            "file:．．/secret.json | compatibility characters",
            "https://example.org/x.json | input_ref must be 'file:'",
            "/data/x.json | input_ref must be 'file:'",
            "file: | names the data directory itself",
            "file:. | names the data directory itself"})
    void shouldRefuseAPathThatCouldLeaveTheDataDirectory(String ref, String reason) {
        assertThatThrownBy(() -> InputRef.parse(ref))
                .isInstanceOf(UnsafePathException.class)
                .hasMessageContaining(reason);
    }

    @Test
    void shouldRefuseANulCharacter() {
        assertThatThrownBy(() -> InputRef.parse("file:frame.json\u0000.png"))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("NUL");
    }

    @Test
    void shouldRefuseASymlinkThatLeadsOutOfTheDataDirectory() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data")).toRealPath();
        Path outside = Files.writeString(tmp.resolve("secret.json"), "{}");
        Files.createSymbolicLink(data.resolve("frame.json"), outside);
        Files.createSymbolicLink(data.resolve("frames"), tmp);

        assertThatThrownBy(() -> InputRef.parse("file:frame.json").resolveIn(data))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("leads outside");
        assertThatThrownBy(() -> InputRef.parse("file:frames/secret.json").resolveIn(data))
                .isInstanceOf(UnsafePathException.class).hasMessageContaining("leads outside");
    }

    @Test
    void shouldFollowASymlinkThatStaysInsideTheDataDirectory() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data")).toRealPath();
        Path real = Files.writeString(Files.createDirectories(data.resolve("day-1")).resolve("frame.json"), "{}");
        Files.createSymbolicLink(data.resolve("latest"), data.resolve("day-1"));

        assertThat(InputRef.parse("file:latest/frame.json").resolveIn(data)).isEqualTo(real);
    }
}
