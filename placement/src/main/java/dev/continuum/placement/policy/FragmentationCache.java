package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;
import dev.continuum.placement.state.ClusterView;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * FGD's per-node memo. A node's fragmentation, and its score for a task shape, stay valid until
 * that node's free capacity changes ({@link ClusterView#nodeVersion}), the placement is asked
 * about another view, or the target workload is rebuilt. A decision then recomputes only the
 * nodes earlier decisions touched, instead of every node in the cluster.
 */
final class FragmentationCache {
    /** Task shapes remembered per node; rarer shapes beyond this are scored afresh each time. */
    private static final int MAX_SHAPES = 1024;

    private ClusterView view;
    private List<WorkloadProfile.TaskClass> classes;
    private long[] version = new long[0];
    private double[] fragmentation = new double[0];
    private double[][] delta = new double[0][];
    private int[][] chosenFree = new int[0][];
    private final Map<Demand, Integer> shapes = new HashMap<>();

    /** Forgets everything if the view or the target workload is not the one cached against. */
    void sync(ClusterView v, List<WorkloadProfile.TaskClass> current) {
        if (v == view && current == classes && version.length == v.nodeCount()) {
            return;
        }
        view = v;
        classes = current;
        int n = v.nodeCount();
        version = new long[n];
        Arrays.fill(version, Long.MIN_VALUE);
        fragmentation = new double[n];
        delta = new double[n][];
        chosenFree = new int[n][];
        shapes.clear();
    }

    /** A small id for the demand's shape, or -1 when too many shapes were seen to cache this one. */
    int shape(Demand d) {
        Integer id = shapes.get(d);
        if (id == null) {
            if (shapes.size() >= MAX_SHAPES) {
                return -1;
            }
            id = shapes.size();
            shapes.put(d, id);
        }
        return id;
    }

    /** Whether the node's score for the shape is known for the node's current state. */
    boolean knows(int node, int shape) {
        fresh(node);
        double[] row = delta[node];
        return shape >= 0 && row != null && shape < row.length && !Double.isNaN(row[shape]);
    }

    double delta(int node, int shape) {
        return delta[node][shape];
    }

    int chosenFree(int node, int shape) {
        return chosenFree[node][shape];
    }

    void put(int node, int shape, double scoreDelta, int free) {
        if (shape < 0) {
            return;
        }
        double[] row = delta[node];
        if (row == null || shape >= row.length) {
            int size = Math.max(shape + 1, row == null ? 8 : row.length * 2);
            double[] grown = Arrays.copyOf(row == null ? new double[0] : row, size);
            Arrays.fill(grown, row == null ? 0 : row.length, size, Double.NaN);
            delta[node] = grown;
            chosenFree[node] = Arrays.copyOf(chosenFree[node] == null ? new int[0] : chosenFree[node], size);
            row = grown;
        }
        row[shape] = scoreDelta;
        chosenFree[node][shape] = free;
    }

    /** The node's fragmentation before any placement, or NaN when not known for its current state. */
    double fragmentation(int node) {
        fresh(node);
        return fragmentation[node];
    }

    void putFragmentation(int node, double value) {
        fragmentation[node] = value;
    }

    private void fresh(int node) {
        long now = view.nodeVersion(node);
        if (version[node] != now) {
            version[node] = now;
            fragmentation[node] = Double.NaN;
            if (delta[node] != null) {
                Arrays.fill(delta[node], Double.NaN);
            }
        }
    }
}
