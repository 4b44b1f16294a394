package dev.continuum.placement.core.forecast;

/** The last buckets' counts of one series, newest last, in a ring of fixed capacity. */
final class History {
    private final double[] ring;
    private long size;

    History(int capacity) {
        this.ring = new double[capacity];
    }

    void add(double count) {
        ring[(int) (size % ring.length)] = count;
        size++;
    }

    /** How many buckets were ever added (not capped by the capacity). */
    long size() {
        return size;
    }

    /** The count {@code back} buckets before the newest (0 = the newest); 0 before the series began. */
    double ago(int back) {
        if (back < 0 || back >= ring.length || back >= size) {
            return 0;
        }
        return ring[(int) ((size - 1 - back) % ring.length)];
    }

    /** Mean and standard deviation of {@code n} buckets ending {@code skip} buckets before the newest. */
    double[] meanAndDeviation(int skip, int n) {
        int available = (int) Math.min(n, Math.max(0, Math.min(size, ring.length) - skip));
        if (available == 0) {
            return new double[] {0, 0};
        }
        double sum = 0;
        double squares = 0;
        for (int i = 0; i < available; i++) {
            double v = ago(skip + i);
            sum += v;
            squares += v * v;
        }
        double mean = sum / available;
        return new double[] {mean, Math.sqrt(Math.max(0, squares / available - mean * mean))};
    }
}
