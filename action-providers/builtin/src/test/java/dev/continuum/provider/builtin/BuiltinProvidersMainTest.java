package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BuiltinProvidersMainTest {

    @Test
    void shouldUseLocalDefaults() {
        BuiltinProvidersMain.Settings s = BuiltinProvidersMain.parse(new String[0]);

        assertThat(s).isEqualTo(new BuiltinProvidersMain.Settings(8091, "127.0.0.1", "/providers", null));
    }

    @Test
    void shouldReadEveryOptionInBothSpellings() {
        BuiltinProvidersMain.Settings s = BuiltinProvidersMain.parse(new String[] {
                "--port", "9000", "--host=0.0.0.0", "--effects-log", "/tmp/e.tsv", "--base-path=/ap/"});

        assertThat(s).isEqualTo(new BuiltinProvidersMain.Settings(9000, "0.0.0.0", "/ap", Path.of("/tmp/e.tsv")));
    }

    @Test
    void shouldRefuseUnknownOptionsAndBadPorts() {
        assertThatThrownBy(() -> BuiltinProvidersMain.parse(new String[] {"--prot", "1"})).hasMessageContaining("--prot");
        assertThatThrownBy(() -> BuiltinProvidersMain.parse(new String[] {"--port", "http"})).hasMessageContaining("--port");
        assertThatThrownBy(() -> BuiltinProvidersMain.parse(new String[] {"--port"})).hasMessageContaining("missing value");
    }
}
