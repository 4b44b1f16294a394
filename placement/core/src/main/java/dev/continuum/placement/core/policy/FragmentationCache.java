package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;
import dev.continuum.placement.core.state.ClusterView;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * FGD's per-node memo. A node's fragmentation, and its score for a task shape, stay valid until
 * that node's free capacity changes ({@link ClusterView#nodeVersion}), the placement is asked
 * about another view, or the target workload is rebuilt. A decision then recomputes only the
 * nodes earlier decisions touched, instead of every node in the cluster. Scores are stored shape
 * by shape, each an array over the nodes, so that a decision reads memory in node order (one array
 * per node made the memory reads, not the arithmetic, the cost).
 */
final class FragmentationCache {
    /** Task shapes remembered; rarer shapes beyond this are scored afresh each time. */
    private static final int MAX_SHAPES = 1024;
    private static final long NEVER = Long.MIN_VALUE;

    /** One task shape's score on every node, with the node version each was computed at. */
    static final class ShapeScores {
        private final long[] at;
        private final double[] delta;
        private final int[] chosenFree;

        private ShapeScores(int nodes) {
            at = new long[nodes];
            Arrays.fill(at, NEVER);
            delta = new double[nodes];
            chosenFree = new int[nodes];
        }

        boolean knows(int node, long version) {
            return at[node] == version;
        }

        /** The fragmentation increase; +infinity where the task does not fit. */
        double delta(int node) {
            return delta[node];
        }

        int chosenFree(int node) {
            return chosenFree[node];
        }

        void put(int node, long version, double scoreDelta, int free) {
            at[node] = version;
            delta[node] = scoreDelta;
            chosenFree[node] = free;
        }
    }

    private ClusterView view;
    private List<WorkloadProfile.TaskClass> classes;
    private long[] fragmentationAt = new long[0];
    private double[] fragmentation = new double[0];
    private final Map<Demand, ShapeScores> shapes = new HashMap<>();

    /** Forgets everything if the view or the target workload is not the one cached against. */
    void sync(ClusterView v, List<WorkloadProfile.TaskClass> current) {
        if (v == view && current == classes && fragmentation.length == v.nodeCount()) {
            return;
        }
        view = v;
        classes = current;
        fragmentationAt = new long[v.nodeCount()];
        Arrays.fill(fragmentationAt, NEVER);
        fragmentation = new double[v.nodeCount()];
        shapes.clear();
    }

    /** The scores of the demand's shape, or null when too many shapes were seen to keep this one. */
    ShapeScores scores(Demand d) {
        ShapeScores s = shapes.get(d);
        if (s == null && shapes.size() < MAX_SHAPES) {
            s = new ShapeScores(fragmentation.length);
            shapes.put(d, s);
        }
        return s;
    }

    /** The node's fragmentation if known at this version, else NaN. */
    double fragmentation(int node, long version) {
        return fragmentationAt[node] == version ? fragmentation[node] : Double.NaN;
    }

    void putFragmentation(int node, long version, double value) {
        fragmentationAt[node] = version;
        fragmentation[node] = value;
    }
}
