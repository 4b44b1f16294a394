package dev.continuum.provider.transfer.engine;

import static jdk.incubator.vector.VectorOperators.ROR;
import static jdk.incubator.vector.VectorOperators.XOR;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * BLAKE3 compressions of 16 (AVX-512) or 8 (AVX2) independent inputs at once on the JDK Vector API:
 * lane {@code l} of vector {@code v_i} is state word {@code i} of input {@code l}. Loaded only when
 * the JVM has {@code jdk.incubator.vector} ({@link Blake3.Lanes#load}).
 *
 * <p>No vector crosses a method boundary: state goes in and out through a small int array, so the
 * JIT keeps every vector in registers instead of boxing it.
 */
final class Blake3Lanes implements Blake3.Lanes {

    private static final VectorSpecies<Integer> S = IntVector.SPECIES_PREFERRED;
    private static final int W = S.length();
    private static final int CHUNK_WORDS = Blake3.CHUNK_LEN / 4;

    /** Lane l reads word w of its block at w + l * stride. */
    private static final int[] CHUNK_MAP = stride(CHUNK_WORDS);
    private static final int[] PARENT_MAP = stride(16);

    private record Scratch(int[] words, int[] state, int[] counterLow, int[] counterHigh) {}

    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(
            () -> new Scratch(new int[W * CHUNK_WORDS], new int[8 * W], new int[W], new int[W]));

    Blake3Lanes() {
        if (W < 8) {
            throw new LinkageError("vectors of " + W + " ints are no faster than scalar code");
        }
    }

    @Override
    public int width() {
        return W;
    }

    @Override
    public boolean chunks(ByteBuffer data, ByteBuffer same, int offset, long counter, int[] cvs, int cvIndex) {
        Scratch s = SCRATCH.get();
        int bytes = W * Blake3.CHUNK_LEN;
        data.slice(offset, bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(s.words);
        // compared from the copy just made (in L1), not from data again: the verify pass reads data once
        if (same != null && IntBuffer.wrap(s.words, 0, bytes / Integer.BYTES)
                .mismatch(same.slice(offset, bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer()) != -1) {
            return false;
        }
        for (int l = 0; l < W; l++) {
            s.counterLow[l] = (int) (counter + l);
            s.counterHigh[l] = (int) ((counter + l) >>> 32);
        }
        start(s.state);
        int blocks = Blake3.CHUNK_LEN / 64;
        for (int b = 0; b < blocks; b++) {
            int flags = (b == 0 ? Blake3.CHUNK_START : 0) | (b == blocks - 1 ? Blake3.CHUNK_END : 0);
            compress(s.state, s.words, 16 * b, CHUNK_MAP, s.counterLow, s.counterHigh, flags);
        }
        store(s.state, cvs, cvIndex);
        return true;
    }

    @Override
    public void parents(int[] cvs, int from) {
        Scratch s = SCRATCH.get();
        java.util.Arrays.fill(s.counterLow, 0);
        java.util.Arrays.fill(s.counterHigh, 0);
        start(s.state);
        compress(s.state, cvs, 16 * from, PARENT_MAP, s.counterLow, s.counterHigh, Blake3.PARENT);
        store(s.state, cvs, from);   // reads of pairs (2i, 2i+1) are done before these writes at i <= 2i
    }

    private static void start(int[] state) {
        for (int w = 0; w < 8; w++) {
            java.util.Arrays.fill(state, w * W, (w + 1) * W, Blake3.IV[w]);
        }
    }

    private static void store(int[] state, int[] cvs, int cvIndex) {
        for (int l = 0; l < W; l++) {
            for (int w = 0; w < 8; w++) {
                cvs[8 * (cvIndex + l) + w] = state[w * W + l];
            }
        }
    }

    /**
     * One compression in every lane: chaining values from {@code state} (word-major), message word
     * {@code w} of lane {@code l} at {@code words[base + w + map[l]]}, 64-byte blocks; the new chaining
     * values back into {@code state}.
     */
    private static void compress(int[] state, int[] words, int base, int[] map, int[] counterLow, int[] counterHigh,
                                 int flags) {
        IntVector m0 = IntVector.fromArray(S, words, base, map, 0);
        IntVector m1 = IntVector.fromArray(S, words, base + 1, map, 0);
        IntVector m2 = IntVector.fromArray(S, words, base + 2, map, 0);
        IntVector m3 = IntVector.fromArray(S, words, base + 3, map, 0);
        IntVector m4 = IntVector.fromArray(S, words, base + 4, map, 0);
        IntVector m5 = IntVector.fromArray(S, words, base + 5, map, 0);
        IntVector m6 = IntVector.fromArray(S, words, base + 6, map, 0);
        IntVector m7 = IntVector.fromArray(S, words, base + 7, map, 0);
        IntVector m8 = IntVector.fromArray(S, words, base + 8, map, 0);
        IntVector m9 = IntVector.fromArray(S, words, base + 9, map, 0);
        IntVector m10 = IntVector.fromArray(S, words, base + 10, map, 0);
        IntVector m11 = IntVector.fromArray(S, words, base + 11, map, 0);
        IntVector m12 = IntVector.fromArray(S, words, base + 12, map, 0);
        IntVector m13 = IntVector.fromArray(S, words, base + 13, map, 0);
        IntVector m14 = IntVector.fromArray(S, words, base + 14, map, 0);
        IntVector m15 = IntVector.fromArray(S, words, base + 15, map, 0);
        IntVector v0 = IntVector.fromArray(S, state, 0);
        IntVector v1 = IntVector.fromArray(S, state, W);
        IntVector v2 = IntVector.fromArray(S, state, 2 * W);
        IntVector v3 = IntVector.fromArray(S, state, 3 * W);
        IntVector v4 = IntVector.fromArray(S, state, 4 * W);
        IntVector v5 = IntVector.fromArray(S, state, 5 * W);
        IntVector v6 = IntVector.fromArray(S, state, 6 * W);
        IntVector v7 = IntVector.fromArray(S, state, 7 * W);
        IntVector v8 = IntVector.broadcast(S, Blake3.IV[0]);
        IntVector v9 = IntVector.broadcast(S, Blake3.IV[1]);
        IntVector v10 = IntVector.broadcast(S, Blake3.IV[2]);
        IntVector v11 = IntVector.broadcast(S, Blake3.IV[3]);
        IntVector v12 = IntVector.fromArray(S, counterLow, 0);
        IntVector v13 = IntVector.fromArray(S, counterHigh, 0);
        IntVector v14 = IntVector.broadcast(S, 64);
        IntVector v15 = IntVector.broadcast(S, flags);
        for (int round = 0; round < 7; round++) {
            // columns
            v0 = v0.add(v4).add(m0); v12 = v12.lanewise(XOR, v0).lanewise(ROR, 16);
            v8 = v8.add(v12); v4 = v4.lanewise(XOR, v8).lanewise(ROR, 12);
            v0 = v0.add(v4).add(m1); v12 = v12.lanewise(XOR, v0).lanewise(ROR, 8);
            v8 = v8.add(v12); v4 = v4.lanewise(XOR, v8).lanewise(ROR, 7);
            v1 = v1.add(v5).add(m2); v13 = v13.lanewise(XOR, v1).lanewise(ROR, 16);
            v9 = v9.add(v13); v5 = v5.lanewise(XOR, v9).lanewise(ROR, 12);
            v1 = v1.add(v5).add(m3); v13 = v13.lanewise(XOR, v1).lanewise(ROR, 8);
            v9 = v9.add(v13); v5 = v5.lanewise(XOR, v9).lanewise(ROR, 7);
            v2 = v2.add(v6).add(m4); v14 = v14.lanewise(XOR, v2).lanewise(ROR, 16);
            v10 = v10.add(v14); v6 = v6.lanewise(XOR, v10).lanewise(ROR, 12);
            v2 = v2.add(v6).add(m5); v14 = v14.lanewise(XOR, v2).lanewise(ROR, 8);
            v10 = v10.add(v14); v6 = v6.lanewise(XOR, v10).lanewise(ROR, 7);
            v3 = v3.add(v7).add(m6); v15 = v15.lanewise(XOR, v3).lanewise(ROR, 16);
            v11 = v11.add(v15); v7 = v7.lanewise(XOR, v11).lanewise(ROR, 12);
            v3 = v3.add(v7).add(m7); v15 = v15.lanewise(XOR, v3).lanewise(ROR, 8);
            v11 = v11.add(v15); v7 = v7.lanewise(XOR, v11).lanewise(ROR, 7);
            // diagonals
            v0 = v0.add(v5).add(m8); v15 = v15.lanewise(XOR, v0).lanewise(ROR, 16);
            v10 = v10.add(v15); v5 = v5.lanewise(XOR, v10).lanewise(ROR, 12);
            v0 = v0.add(v5).add(m9); v15 = v15.lanewise(XOR, v0).lanewise(ROR, 8);
            v10 = v10.add(v15); v5 = v5.lanewise(XOR, v10).lanewise(ROR, 7);
            v1 = v1.add(v6).add(m10); v12 = v12.lanewise(XOR, v1).lanewise(ROR, 16);
            v11 = v11.add(v12); v6 = v6.lanewise(XOR, v11).lanewise(ROR, 12);
            v1 = v1.add(v6).add(m11); v12 = v12.lanewise(XOR, v1).lanewise(ROR, 8);
            v11 = v11.add(v12); v6 = v6.lanewise(XOR, v11).lanewise(ROR, 7);
            v2 = v2.add(v7).add(m12); v13 = v13.lanewise(XOR, v2).lanewise(ROR, 16);
            v8 = v8.add(v13); v7 = v7.lanewise(XOR, v8).lanewise(ROR, 12);
            v2 = v2.add(v7).add(m13); v13 = v13.lanewise(XOR, v2).lanewise(ROR, 8);
            v8 = v8.add(v13); v7 = v7.lanewise(XOR, v8).lanewise(ROR, 7);
            v3 = v3.add(v4).add(m14); v14 = v14.lanewise(XOR, v3).lanewise(ROR, 16);
            v9 = v9.add(v14); v4 = v4.lanewise(XOR, v9).lanewise(ROR, 12);
            v3 = v3.add(v4).add(m15); v14 = v14.lanewise(XOR, v3).lanewise(ROR, 8);
            v9 = v9.add(v14); v4 = v4.lanewise(XOR, v9).lanewise(ROR, 7);
            // the message permutation, as renaming
            IntVector t0 = m0, t1 = m1, t3 = m3, t4 = m4, t5 = m5, t8 = m8, t9 = m9;
            m0 = m2; m1 = m6; m2 = t3; m3 = m10; m4 = m7; m5 = t0; m6 = t4; m7 = m13;
            m8 = t1; m9 = m11; m10 = m12; m11 = t5; m12 = t9; m13 = m14; m14 = m15; m15 = t8;
        }
        v0.lanewise(XOR, v8).intoArray(state, 0);
        v1.lanewise(XOR, v9).intoArray(state, W);
        v2.lanewise(XOR, v10).intoArray(state, 2 * W);
        v3.lanewise(XOR, v11).intoArray(state, 3 * W);
        v4.lanewise(XOR, v12).intoArray(state, 4 * W);
        v5.lanewise(XOR, v13).intoArray(state, 5 * W);
        v6.lanewise(XOR, v14).intoArray(state, 6 * W);
        v7.lanewise(XOR, v15).intoArray(state, 7 * W);
    }

    private static int[] stride(int stride) {
        int[] map = new int[W];
        for (int l = 0; l < W; l++) {
            map[l] = l * stride;
        }
        return map;
    }
}
