package dev.continuum.placement.core.state;

import java.util.BitSet;
import java.util.PrimitiveIterator;

/**
 * Nodes bucketed by free GPU milli, so best fit can visit the tightest nodes first without
 * scanning all of them. One bucket per possible value (a node has at most a few thousand), each
 * an intrusive list: moving a node costs O(1), finding the next non-empty bucket one bit scan.
 * Order inside a bucket is arbitrary; callers that need a tie-break by node index apply it.
 */
final class FreeMilliIndex {
    private final int[] head;
    private final int[] next;
    private final int[] prev;
    private final BitSet nonEmpty;

    FreeMilliIndex(int nodes, int maxFreeMilli) {
        head = new int[maxFreeMilli + 1];
        java.util.Arrays.fill(head, -1);
        next = new int[nodes];
        prev = new int[nodes];
        nonEmpty = new BitSet(maxFreeMilli + 1);
    }

    private FreeMilliIndex(FreeMilliIndex o) {
        head = o.head.clone();
        next = o.next.clone();
        prev = o.prev.clone();
        nonEmpty = (BitSet) o.nonEmpty.clone();
    }

    FreeMilliIndex copy() {
        return new FreeMilliIndex(this);
    }

    void add(int node, int freeMilli) {
        int h = head[freeMilli];
        next[node] = h;
        prev[node] = -1;
        if (h >= 0) {
            prev[h] = node;
        }
        head[freeMilli] = node;
        nonEmpty.set(freeMilli);
    }

    void remove(int node, int freeMilli) {
        int p = prev[node];
        int n = next[node];
        if (p >= 0) {
            next[p] = n;
        } else {
            head[freeMilli] = n;
            if (n < 0) {
                nonEmpty.clear(freeMilli);
            }
        }
        if (n >= 0) {
            prev[n] = p;
        }
    }

    /** Nodes with at least {@code minFreeMilli} free, least free first. */
    PrimitiveIterator.OfInt from(long minFreeMilli) {
        return new PrimitiveIterator.OfInt() {
            private int bucket = minFreeMilli >= head.length ? -1 : nonEmpty.nextSetBit((int) Math.max(0, minFreeMilli));
            private int node = bucket < 0 ? -1 : head[bucket];

            @Override
            public boolean hasNext() {
                return node >= 0;
            }

            @Override
            public int nextInt() {
                if (node < 0) {
                    throw new java.util.NoSuchElementException();
                }
                int out = node;
                node = next[node];
                if (node < 0 && bucket + 1 < head.length) {
                    bucket = nonEmpty.nextSetBit(bucket + 1);
                    node = bucket < 0 ? -1 : head[bucket];
                }
                return out;
            }
        };
    }
}
