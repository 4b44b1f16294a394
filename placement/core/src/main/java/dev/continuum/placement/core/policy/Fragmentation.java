package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.state.ClusterView;

import java.util.List;

/**
 * FGD's fragmentation measure (Weng et al., ATC'23, section 4; the authors' simulator
 * {@code NodeGpuShareFragAmountScore}). For a task shape m and a node, the fragment F_n(m) is the
 * free GPU capacity m cannot use there: all of it when m does not fit the node (CPU, GPU model or
 * GPU count), otherwise the free part of GPUs too small for m (partially used GPUs for a whole-GPU
 * task; GPUs with less than m's share for a shared one). A node's fragmentation F_n(M) is the
 * expectation over the target workload's task shapes, sum of p_m F_n(m); all in milli-GPUs. Memory
 * counts only for shapes that carry a memory request (a memory-aware {@link WorkloadProfile}); the
 * paper's shapes carry none.
 */
public final class Fragmentation {
    private Fragmentation() {
    }

    public static double node(int[] freeMilli, long freeCpu, long freeMem, String model,
                              List<WorkloadProfile.TaskClass> classes) {
        long total = 0;
        long partial = 0;
        int fully = 0;
        for (int f : freeMilli) {
            total += f;
            if (f == 1000) {
                fully++;
            } else {
                partial += f;
            }
        }
        if (total == 0) {
            return 0;
        }
        double frag = 0;
        for (WorkloadProfile.TaskClass c : classes) {
            double f;
            if (freeCpu < c.cpuMilli() || freeMem < c.memoryMib() || !c.acceptsModel(model)) {
                f = total;
            } else if (c.gpuMilli() < 1000) {
                long tooSmall = 0;
                boolean usable = false;
                for (int free : freeMilli) {
                    if (free < c.gpuMilli()) {
                        tooSmall += free;
                    } else {
                        usable = true;
                    }
                }
                f = usable ? tooSmall : total;
            } else {
                f = fully >= c.gpus() ? partial : total;
            }
            frag += c.share() * f;
        }
        return frag;
    }

    public static int[] freeOf(ClusterView v, int node) {
        int[] free = new int[v.spec(node).gpus()];
        for (int g = 0; g < free.length; g++) {
            free[g] = v.freeGpuMilli(node, g);
        }
        return free;
    }

    /** Cluster fragmentation in milli-GPUs. */
    public static double cluster(ClusterView v, List<WorkloadProfile.TaskClass> classes) {
        double sum = 0;
        for (int node = 0; node < v.nodeCount(); node++) {
            if (v.spec(node).gpus() > 0) {
                sum += node(freeOf(v, node), v.freeCpu(node), v.freeMemory(node), v.spec(node).gpuModel(), classes);
            }
        }
        return sum;
    }
}
