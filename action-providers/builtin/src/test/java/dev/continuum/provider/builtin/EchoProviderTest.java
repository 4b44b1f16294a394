package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EchoProviderTest {

    @Test
    void shouldSucceedAtOnceWithTheBodyAsDetails() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus status = h.run("echo", "e-1", "{\"greeting\": \"hello\", \"n\": [1, 2]}");

            assertThat(status.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(status.details()).isEqualTo(BuiltinHarness.json("{\"greeting\": \"hello\", \"n\": [1, 2]}"));
        }
    }

    @Test
    void shouldRecordOneEffectPerNewActionAndNoneForARepeatedRequest(@TempDir Path dir) throws Exception {
        Path effects = dir.resolve("effects.tsv");
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults().withEffectsLog(effects))) {
            ActionStatus first = h.run("echo", "req-a", "{}");
            h.run("echo", "req-a", "{}");
            ActionStatus second = h.run("echo", "req-b", "{}");

            List<String> lines = Files.readAllLines(effects);
            assertThat(lines).containsExactly("req-a\t" + first.actionId(), "req-b\t" + second.actionId());
        }
    }
}
