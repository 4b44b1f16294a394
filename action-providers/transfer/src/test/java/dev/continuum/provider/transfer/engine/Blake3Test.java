package dev.continuum.provider.transfer.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.bouncycastle.crypto.digests.Blake3Digest;
import org.junit.jupiter.api.Test;

class Blake3Test {

    private static byte[] pattern(int length) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i % 251);
        }
        return b;
    }

    private static String bouncyCastle(byte[] data) {
        Blake3Digest d = new Blake3Digest(256);
        d.update(data, 0, data.length);
        byte[] out = new byte[32];
        d.doFinal(out, 0);
        return HexFormat.of().formatHex(out);
    }

    private static List<String[]> officialVectors() throws IOException {
        try (InputStream in = Blake3Test.class.getResourceAsStream("/blake3/test-vectors.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).lines()
                    .filter(l -> !l.startsWith("#") && !l.isBlank()).map(l -> l.split(" ")).toList();
        }
    }

    @Test
    void shouldMatchTheOfficialTestVectorsOnVectorLanesAndWithout() throws IOException {
        assertThat(Blake3.implementation()).as("the tests run with --add-modules jdk.incubator.vector").startsWith("vector");
        List<String[]> vectors = officialVectors();
        assertThat(vectors).hasSize(22);
        for (String[] v : vectors) {
            ByteBuffer input = ByteBuffer.wrap(pattern(Integer.parseInt(v[0])));
            assertThat(HexFormat.of().formatHex(Blake3.hash(input))).as("length " + v[0]).isEqualTo(v[1]);
            assertThat(HexFormat.of().formatHex(Blake3.hashScalar(input))).as("scalar, length " + v[0]).isEqualTo(v[1]);
        }
    }

    @Test
    void shouldAgreeWithBouncyCastleOnChunkSizedAndRaggedInputs() {
        Random random = new Random(42);
        // whole lane groups, a group and one chunk, odd tree shapes, the engine's chunk sizes and one byte more
        for (int length : new int[] {16 * 1024, 17 * 1024, 33 * 1024 + 5, 47 * 1024 - 1, 1 << 20, 5 * 1024 * 1024,
                                     8 * 1024 * 1024, 8 * 1024 * 1024 + 1, 3 * 1024 * 1024 + 777}) {
            byte[] data = new byte[length];
            random.nextBytes(data);
            assertThat(HexFormat.of().formatHex(Blake3.hash(ByteBuffer.wrap(data)))).as("length " + length)
                    .isEqualTo(bouncyCastle(data));
        }
    }

    @Test
    void shouldHashOnlyTheRemainingBytesOfADirectBufferAndLeaveItsPosition() {
        byte[] data = pattern(40_000);
        ByteBuffer direct = ByteBuffer.allocateDirect(50_000).put(new byte[1000]).put(data).flip().position(1000);
        assertThat(Blake3.hash(direct)).isEqualTo(Blake3.hash(ByteBuffer.wrap(data)));
        assertThat(direct.position()).isEqualTo(1000);
    }

    @Test
    void shouldHashWhileComparingAndRefuseAnyDifferingByte() {
        byte[] data = new byte[5 * 1024 * 1024 + 300];   // lane groups, scalar chunks and a partial last chunk
        new Random(7).nextBytes(data);
        ByteBuffer direct = ByteBuffer.allocateDirect(data.length).put(data).flip();
        assertThat(Blake3.hashIfEqual(ByteBuffer.wrap(data), direct)).isEqualTo(Blake3.hash(ByteBuffer.wrap(data)));
        for (int at : new int[] {0, 16 * 1024 - 1, 2_000_000, data.length - 1000, data.length - 1}) {
            byte[] other = data.clone();
            other[at] ^= 0x10;
            assertThat(Blake3.hashIfEqual(ByteBuffer.wrap(data), ByteBuffer.wrap(other))).as("byte " + at).isNull();
            assertThat(ChecksumAlgorithm.SHA256.hexIfEqual(ByteBuffer.wrap(data), ByteBuffer.wrap(other))).isNull();
        }
        assertThat(Blake3.hashIfEqual(ByteBuffer.wrap(data, 0, 10), ByteBuffer.wrap(data, 0, 11))).isNull();
    }
}
