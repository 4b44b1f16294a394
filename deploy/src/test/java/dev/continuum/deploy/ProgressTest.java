package dev.continuum.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    @Test
    void shouldWriteOneLinePerChangeWhenOutputIsNotATerminal() {
        Progress progress = new Progress(out, false);

        progress.show("status ACTIVE ...");
        progress.show("status ACTIVE ...");
        progress.show("status SUCCEEDED ...");
        progress.done();

        assertThat(text()).isEqualTo("status ACTIVE ...\nstatus SUCCEEDED ...\n").doesNotContain("\r");
    }

    @Test
    void shouldRedrawInPlaceAndEndTheLineOnATerminal() {
        Progress progress = new Progress(out, true);

        progress.show("status ACTIVE ...");
        progress.show("status OK");
        progress.done();

        assertThat(text()).isEqualTo("\rstatus ACTIVE ...\rstatus OK        \n");
    }

    private String text() {
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
