package dev.continuum.provider.transfer.engine;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * BLAKE3 (default 32-byte output, unkeyed) of a whole buffer at once: the hash of chunks.
 *
 * <p>BLAKE3 cuts its input into 1 KiB chunks that are compressed independently and joined by a
 * binary tree. That independence is what makes it fast: {@link Blake3Lanes} (the JDK Vector API,
 * present when the JVM runs with {@code --add-modules jdk.incubator.vector}) compresses 16 chunks
 * (or 8 with 256-bit vectors) in the lanes of one set of vectors, as the reference C and Rust
 * implementations do with AVX-512. Without the module the same tree is computed one chunk at a time
 * here (same digest, slower). Checked against the official test vectors and Bouncy Castle.
 */
public final class Blake3 {

    static final int CHUNK_LEN = 1024;
    static final int CHUNK_START = 1;
    static final int CHUNK_END = 2;
    static final int PARENT = 4;
    static final int ROOT = 8;
    static final int[] IV = {0x6A09E667, 0xBB67AE85, 0x3C6EF372, 0xA54FF53A,
                             0x510E527F, 0x9B05688C, 0x1F83D9AB, 0x5BE0CD19};
    /** Word order of the message in each of the 7 rounds (the permutation applied round after round). */
    static final int[][] SCHEDULE = schedule();

    private static final Lanes LANES = Lanes.load();

    private Blake3() {}

    /** The parallel part: many whole, non-root chunks and many parents at once. */
    interface Lanes {
        /** How many chunks one call compresses. */
        int width();

        /**
         * Chaining values of {@code width()} whole chunks read from {@code data} at {@code offset}, counters
         * from {@code counter}. With {@code same} not null, false when {@code same} holds other bytes there.
         */
        boolean chunks(ByteBuffer data, ByteBuffer same, int offset, long counter, int[] cvs, int cvIndex);

        /** Parent CVs of pairs {@code (2i, 2i+1)} of {@code cvs} for i in [from, from + width()), stored at i. */
        void parents(int[] cvs, int from);

        static Lanes load() {
            if (ModuleLayer.boot().findModule("jdk.incubator.vector").isEmpty()) {
                return null;
            }
            try {
                return (Lanes) Class.forName("dev.continuum.provider.transfer.engine.Blake3Lanes")
                        .getDeclaredConstructor().newInstance();
            } catch (ReflectiveOperationException | LinkageError e) {
                return null;
            }
        }
    }

    /**
     * Hashes 64 MiB so that the JIT compiles the lane code before the first transfer needs it: until then
     * the Vector API runs interpreted, hundreds of times slower (a cold provider's first 2 GiB took
     * 6 s instead of 2.4 s). A no-op without the lanes.
     */
    public static void warmUp() {
        if (LANES == null) {
            return;
        }
        ByteBuffer data = ByteBuffer.allocate(1 << 20);
        for (int i = 0; i < 64; i++) {
            hash(data);
        }
    }

    /** "vector-512", "vector-256" or "scalar": what {@link #hash} runs on in this JVM. */
    public static String implementation() {
        return LANES == null ? "scalar" : "vector-" + (LANES.width() * 32);
    }

    /** BLAKE3 of the buffer's remaining bytes; its position is left unchanged. */
    public static byte[] hash(ByteBuffer data) {
        return hash(data, null, LANES);
    }

    /**
     * BLAKE3 of {@code data}'s remaining bytes if {@code same}'s remaining bytes are equal to them, else
     * null: one pass for "verify and hash", comparing each 16 KiB while it is in the L1 cache for hashing.
     */
    public static byte[] hashIfEqual(ByteBuffer data, ByteBuffer same) {
        return data.remaining() == same.remaining() ? hash(data, same, LANES) : null;
    }

    /** As {@link #hash(ByteBuffer)} without the vector lanes, for tests and fallback. */
    static byte[] hashScalar(ByteBuffer data) {
        return hash(data, null, null);
    }

    private static byte[] hash(ByteBuffer buffer, ByteBuffer sameBuffer, Lanes lanes) {
        ByteBuffer data = buffer.slice().order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer same = sameBuffer == null ? null : sameBuffer.slice();
        int length = data.remaining();
        int[] out = new int[16];
        if (length <= CHUNK_LEN) {
            if (same != null && data.mismatch(same) != -1) {
                return null;
            }
            chunk(data, 0, length, 0, true, out, 0);
            return bytes(out);
        }
        int chunks = (length + CHUNK_LEN - 1) / CHUNK_LEN;
        int[] cvs = new int[chunks * 8];
        int c = 0;
        if (lanes != null) {
            int whole = length / CHUNK_LEN;   // a partial last chunk stays scalar; a whole one is no root here
            for (int width = lanes.width(); c + width <= whole; c += width) {
                if (!lanes.chunks(data, same, c * CHUNK_LEN, c, cvs, c)) {
                    return null;
                }
            }
        }
        if (same != null && data.slice(c * CHUNK_LEN, length - c * CHUNK_LEN)
                .mismatch(same.slice(c * CHUNK_LEN, length - c * CHUNK_LEN)) != -1) {
            return null;
        }
        for (; c < chunks; c++) {
            chunk(data, c * CHUNK_LEN, Math.min(CHUNK_LEN, length - c * CHUNK_LEN), c, false, cvs, c * 8);
        }
        // a left-complete tree: pairing neighbours level by level, an odd last node moving up unchanged
        int[] block = new int[16];
        int count = chunks;
        while (count > 2) {
            int pairs = count / 2;
            int i = 0;
            if (lanes != null) {
                for (int width = lanes.width(); i + width <= pairs; i += width) {
                    lanes.parents(cvs, i);
                }
            }
            for (; i < pairs; i++) {
                System.arraycopy(cvs, 16 * i, block, 0, 16);
                compress(IV, 0, block, 0, 64, PARENT, cvs, 8 * i);
            }
            if ((count & 1) == 1) {
                System.arraycopy(cvs, 8 * (count - 1), cvs, 8 * pairs, 8);
            }
            count = pairs + (count & 1);
        }
        System.arraycopy(cvs, 0, block, 0, 16);
        compress(IV, 0, block, 0, 64, PARENT | ROOT, out, 0);
        return bytes(out);
    }

    /** Compresses one chunk (up to 1 KiB) into its chaining value at {@code out[outIndex..+8]}. */
    private static void chunk(ByteBuffer data, int offset, int length, long counter, boolean root, int[] out, int outIndex) {
        int[] cv = IV.clone();
        int[] block = new int[16];
        int blocks = Math.max(1, (length + 63) / 64);
        for (int b = 0; b < blocks; b++) {
            int start = offset + 64 * b;
            int blockLen = Math.min(64, length - 64 * b);
            if (blockLen == 64) {
                for (int w = 0; w < 16; w++) {
                    block[w] = data.getInt(start + 4 * w);
                }
            } else {
                java.util.Arrays.fill(block, 0);
                for (int i = 0; i < blockLen; i++) {
                    block[i >> 2] |= (data.get(start + i) & 0xFF) << (8 * (i & 3));
                }
            }
            boolean last = b == blocks - 1;
            int flags = (b == 0 ? CHUNK_START : 0) | (last ? CHUNK_END : 0) | (last && root ? ROOT : 0);
            compress(cv, 0, block, 0, counter, blockLen, flags, last ? out : cv, last ? outIndex : 0);
        }
    }

    /** The compression function, keeping the first 8 output words (a chaining value or a 32-byte root hash). */
    static void compress(int[] cv, int cvIndex, int[] m, int mIndex, int blockLen, int flags, int[] out, int outIndex) {
        compress(cv, cvIndex, m, mIndex, 0L, blockLen, flags, out, outIndex);
    }

    static void compress(int[] cv, int cvIndex, int[] m, int mIndex, long counter, int blockLen, int flags,
                         int[] out, int outIndex) {
        int v0 = cv[cvIndex], v1 = cv[cvIndex + 1], v2 = cv[cvIndex + 2], v3 = cv[cvIndex + 3];
        int v4 = cv[cvIndex + 4], v5 = cv[cvIndex + 5], v6 = cv[cvIndex + 6], v7 = cv[cvIndex + 7];
        int v8 = IV[0], v9 = IV[1], v10 = IV[2], v11 = IV[3];
        int v12 = (int) counter, v13 = (int) (counter >>> 32), v14 = blockLen, v15 = flags;
        for (int[] s : SCHEDULE) {
            // columns
            v0 += v4 + m[mIndex + s[0]]; v12 = Integer.rotateRight(v12 ^ v0, 16); v8 += v12; v4 = Integer.rotateRight(v4 ^ v8, 12);
            v0 += v4 + m[mIndex + s[1]]; v12 = Integer.rotateRight(v12 ^ v0, 8); v8 += v12; v4 = Integer.rotateRight(v4 ^ v8, 7);
            v1 += v5 + m[mIndex + s[2]]; v13 = Integer.rotateRight(v13 ^ v1, 16); v9 += v13; v5 = Integer.rotateRight(v5 ^ v9, 12);
            v1 += v5 + m[mIndex + s[3]]; v13 = Integer.rotateRight(v13 ^ v1, 8); v9 += v13; v5 = Integer.rotateRight(v5 ^ v9, 7);
            v2 += v6 + m[mIndex + s[4]]; v14 = Integer.rotateRight(v14 ^ v2, 16); v10 += v14; v6 = Integer.rotateRight(v6 ^ v10, 12);
            v2 += v6 + m[mIndex + s[5]]; v14 = Integer.rotateRight(v14 ^ v2, 8); v10 += v14; v6 = Integer.rotateRight(v6 ^ v10, 7);
            v3 += v7 + m[mIndex + s[6]]; v15 = Integer.rotateRight(v15 ^ v3, 16); v11 += v15; v7 = Integer.rotateRight(v7 ^ v11, 12);
            v3 += v7 + m[mIndex + s[7]]; v15 = Integer.rotateRight(v15 ^ v3, 8); v11 += v15; v7 = Integer.rotateRight(v7 ^ v11, 7);
            // diagonals
            v0 += v5 + m[mIndex + s[8]]; v15 = Integer.rotateRight(v15 ^ v0, 16); v10 += v15; v5 = Integer.rotateRight(v5 ^ v10, 12);
            v0 += v5 + m[mIndex + s[9]]; v15 = Integer.rotateRight(v15 ^ v0, 8); v10 += v15; v5 = Integer.rotateRight(v5 ^ v10, 7);
            v1 += v6 + m[mIndex + s[10]]; v12 = Integer.rotateRight(v12 ^ v1, 16); v11 += v12; v6 = Integer.rotateRight(v6 ^ v11, 12);
            v1 += v6 + m[mIndex + s[11]]; v12 = Integer.rotateRight(v12 ^ v1, 8); v11 += v12; v6 = Integer.rotateRight(v6 ^ v11, 7);
            v2 += v7 + m[mIndex + s[12]]; v13 = Integer.rotateRight(v13 ^ v2, 16); v8 += v13; v7 = Integer.rotateRight(v7 ^ v8, 12);
            v2 += v7 + m[mIndex + s[13]]; v13 = Integer.rotateRight(v13 ^ v2, 8); v8 += v13; v7 = Integer.rotateRight(v7 ^ v8, 7);
            v3 += v4 + m[mIndex + s[14]]; v14 = Integer.rotateRight(v14 ^ v3, 16); v9 += v14; v4 = Integer.rotateRight(v4 ^ v9, 12);
            v3 += v4 + m[mIndex + s[15]]; v14 = Integer.rotateRight(v14 ^ v3, 8); v9 += v14; v4 = Integer.rotateRight(v4 ^ v9, 7);
        }
        out[outIndex] = v0 ^ v8; out[outIndex + 1] = v1 ^ v9; out[outIndex + 2] = v2 ^ v10; out[outIndex + 3] = v3 ^ v11;
        out[outIndex + 4] = v4 ^ v12; out[outIndex + 5] = v5 ^ v13; out[outIndex + 6] = v6 ^ v14; out[outIndex + 7] = v7 ^ v15;
    }

    private static byte[] bytes(int[] words) {
        byte[] out = new byte[32];
        ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().put(words, 0, 8);
        return out;
    }

    private static int[][] schedule() {
        int[] permutation = {2, 6, 3, 10, 7, 0, 4, 13, 1, 11, 12, 5, 9, 14, 15, 8};
        int[][] rounds = new int[7][16];
        for (int w = 0; w < 16; w++) {
            rounds[0][w] = w;
        }
        for (int r = 1; r < 7; r++) {
            for (int w = 0; w < 16; w++) {
                rounds[r][w] = rounds[r - 1][permutation[w]];
            }
        }
        return rounds;
    }
}
