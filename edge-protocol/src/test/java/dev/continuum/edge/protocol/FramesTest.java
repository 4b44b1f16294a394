package dev.continuum.edge.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FramesTest {

    @Test
    void shouldGiveBackTheHeaderAndBodyThatWereJoined() {
        byte[] message = Frames.join("{\"op\":\"read\"}".getBytes(StandardCharsets.UTF_8),
                ByteBuffer.wrap(new byte[] {1, 2, 3}));

        Frames.Parts parts = Frames.split(message);

        assertThat(Frames.isFrame(message)).isTrue();
        assertThat(StandardCharsets.UTF_8.decode(parts.header()).toString()).isEqualTo("{\"op\":\"read\"}");
        assertThat(parts.body().remaining()).isEqualTo(3);
        assertThat(parts.body().get(2)).isEqualTo((byte) 3);
    }

    @Test
    void shouldTellJsonFromAFrameByItsFirstByte() {
        assertThat(Frames.isFrame("{\"task_id\":\"t\"}".getBytes(StandardCharsets.UTF_8))).isFalse();
    }

    @Test
    void shouldRefuseAFrameWhoseLengthPrefixDoesNotFitTheMessage() {
        byte[] truncated = ByteBuffer.allocate(8).putInt(100).array();

        assertThatThrownBy(() -> Frames.split(truncated)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("does not fit");
        assertThatThrownBy(() -> Frames.split(new byte[] {0, 0})).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("shorter than its length prefix");
    }
}
