package dev.continuum.paths;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PathNormalizerTest {

    @ParameterizedTest
    @CsvSource({
            "file1.txt, file1.txt",
            "/~/copied_file1.txt, copied_file1.txt",
            "~/a/b, a/b",
            "/data/./run//x/, data/run/x",
            "/, ''",
            "/~/, ''",
            "'', ''",
            "'..a/b..', '..a/b..'",
            "'a b/ü.h5', 'a b/ü.h5'",
            "'%zz/100%', '%zz/100%'",
    })
    void shouldConfineCollectionPathsToTheEndpointRoot(String raw, String expected) {
        assertThat(PathNormalizer.normalize(raw).relative()).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "..", "../etc/passwd", "/../../etc/passwd", "a/../../b", "a/..", "/~/../x",
            "%2e%2e/etc", "%2E%2E%2Fetc", "a%2fb", "..%252f",
            "a\u0000b", "a\nb", "a\u007fb", "a\u0085b",
            "a\\..\\b", "C:\\Windows",
            "\uff0e\uff0e/etc", "a\u2215b", "\u2024\u2024/x", "a\ufe52b",
            "a\u202eb", "a\u200bb", "\ufeffa",
            "\ud800", "a\udc00b",
            "~root/.ssh", "/~root",
            "a\u2028b",
    })
    void shouldRefuseTraversalAndEncodingTricks(String raw) {
        assertThatThrownBy(() -> PathNormalizer.normalize(raw))
                .isInstanceOf(UnsafePathException.class)
                .hasMessageContaining("refused");
    }

    @ParameterizedTest
    @ValueSource(strings = {"../x", "%2e%2e", "a\u0000"})
    void shouldExplainWhichRuleRefusedThePath(String raw) {
        assertThatThrownBy(() -> PathNormalizer.normalize(raw))
                .hasMessageMatching("path \".*\" refused: .*(\\.\\.|percent|NUL).*");
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseOverlongPathsAndSegments() {
        assertThatThrownBy(() -> PathNormalizer.normalize("a/".repeat(2100))).hasMessageContaining("longer than 4096");
        assertThatThrownBy(() -> PathNormalizer.normalize("x".repeat(256))).hasMessageContaining("255 bytes");
        assertThatThrownBy(() -> PathNormalizer.normalize(null)).hasMessageContaining("required");
    }

    @org.junit.jupiter.api.Test
    void shouldRefuseListedNamesThatWouldEscape() {
        assertThatThrownBy(() -> EndpointPath.ROOT.child("..")).isInstanceOf(UnsafePathException.class);
        assertThatThrownBy(() -> EndpointPath.ROOT.child("a/b")).isInstanceOf(UnsafePathException.class);
        assertThat(EndpointPath.ROOT.child("ok").child("x").toString()).isEqualTo("/ok/x");
    }
}
