package dev.continuum.edge.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WireTest {

    private static final long[] SHAPE = {1, 2, 3};
    private static final float[] VALUES = {0.5f, -1.25f, 3e-8f, Float.MAX_VALUE, 0f, 42f};

    private static TaskMessage task(Tensor input) {
        return new TaskMessage("t1", "cls", input, null, "2030-01-01T00:00:00Z", null);
    }

    @Test
    void shouldCarryTheExactValuesInABinaryFrame() {
        byte[] frame = Wire.encode(task(Tensor.framed(SHAPE, VALUES)));

        TaskMessage back = Wire.decode(frame, TaskMessage.class);

        assertThat(Wire.isFrame(frame)).isTrue();
        assertThat(back.input().values()).containsExactly(VALUES);
        assertThat(back.input().shape()).containsExactly(SHAPE);
        assertThat(back.input().inBody()).isTrue();
        assertThat(back.taskId()).isEqualTo("t1");
    }

    @Test
    void shouldStillReadJsonTensorsAsDataOrBase64() {
        byte[] data = Wire.encode(task(Tensor.of(SHAPE, VALUES)));
        byte[] b64 = Wire.encode(task(Tensor.compact(SHAPE, VALUES)));

        assertThat(Wire.isFrame(data)).isFalse();
        assertThat(Wire.decode(data, TaskMessage.class).input().values()).containsExactly(VALUES);
        assertThat(Wire.decode(b64, TaskMessage.class).input().values()).containsExactly(VALUES);
    }

    @Test
    void shouldReadATensorDocumentToExactlyTheFloatsItWasWrittenFrom() {
        // numbers go through Jackson's fast parser: every float a document holds must come back bit for bit
        java.util.Random random = new java.util.Random(29);
        float[] values = new float[20_000];
        for (int i = 0; i < values.length; i++) {
            values[i] = switch (i % 4) {
                case 0 -> random.nextFloat();
                case 1 -> Float.intBitsToFloat(random.nextInt()) % 1e30f; // any exponent, subnormals included
                case 2 -> (random.nextFloat() - 0.5f) * 1e-38f;
                default -> (float) random.nextGaussian();
            };
            if (Float.isNaN(values[i])) {
                values[i] = 1.5f;
            }
        }
        values[0] = Float.MIN_VALUE;
        values[1] = Float.MAX_VALUE;
        byte[] document = Wire.encode(Tensor.of(new long[]{values.length}, values));

        assertThat(Wire.decode(document, Tensor.class).values()).containsExactly(values);
    }

    @Test
    void shouldSendAMessageWithoutATensorAsJsonEvenWhenFramesAreUsed() {
        ResultMessage failed = ResultMessage.failed("t1", "gw", "expired");

        assertThat(Wire.isFrame(Wire.encode(failed))).isFalse();
    }

    @Test
    void shouldRefuseAFrameWhoseBodyDoesNotFillTheShape() {
        byte[] frame = Wire.encode(task(Tensor.framed(SHAPE, VALUES)));
        byte[] cut = java.util.Arrays.copyOf(frame, frame.length - 4);

        assertThatThrownBy(() -> Wire.decode(cut, TaskMessage.class))
                .isInstanceOf(Wire.MalformedMessageException.class).hasMessageContaining("needs 6 values, got 5");
    }

    @Test
    void shouldRefuseAFrameWhoseHeaderLengthDoesNotFit() {
        byte[] header = "{\"task_id\":\"t1\"}".getBytes(StandardCharsets.UTF_8);
        byte[] frame = ByteBuffer.allocate(4 + header.length).putInt(header.length + 100).put(header).array();

        assertThatThrownBy(() -> Wire.decode(frame, TaskMessage.class))
                .isInstanceOf(Wire.MalformedMessageException.class).hasMessageContaining("does not fit");
    }

    @Test
    void shouldExplainAJsonTensorThatPointsToABodyItDoesNotHave() {
        byte[] json = "{\"task_id\":\"t1\",\"model\":\"cls\",\"input\":{\"shape\":[1],\"body\":\"f32le\"}}"
                .getBytes(StandardCharsets.UTF_8);

        TaskMessage task = Wire.decode(json, TaskMessage.class);

        assertThatThrownBy(() -> task.input().values()).hasMessageContaining("not a binary frame");
    }

    @Test
    void shouldCarryTemperatureAndPowerWhenTheBoardReportsThemAndLeaveThemOutWhenNot() {
        GpuInfo full = new GpuInfo(0, "NVIDIA A2", 15356, 1024, 37, 41, 19.87);
        GpuInfo partial = new GpuInfo(1, "NVIDIA A2", 15356, 0, 0);

        String json = new String(Wire.encode(partial), StandardCharsets.UTF_8);

        assertThat(Wire.decode(Wire.encode(full), GpuInfo.class)).isEqualTo(full);
        assertThat(json).doesNotContain("temperature_c").doesNotContain("power_w");
        // what a gateway older than these fields sends
        assertThat(Wire.decode("{\"index\":1,\"model\":\"NVIDIA A2\",\"memory_total_mb\":15356,\"memory_used_mb\":0,\"utilization_percent\":0}"
                .getBytes(StandardCharsets.UTF_8), GpuInfo.class)).isEqualTo(partial);
    }
}
