package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Demand;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The target workload FGD measures fragmentation against: the popularity of GPU task shapes,
 * learned from arrivals as they stream in. As in the FGD authors' simulator
 * ({@code GetTypicalPods}): a shape is the exact (GPUs, GPU share, CPU, GPU models) request —
 * memory is not part of it — and only the most popular shapes are kept, most popular first, until
 * they cover {@code coverage} of the tasks seen, then renormalised. Their experiment scripts run
 * with 95% coverage, one shape at a time ({@code --pod-popularity-threshold 95},
 * {@code --pod-increase-step 1}); the code's own default is 60% in steps of 10. CPU-only tasks are
 * left out (the authors count them): their term of the measure is the node's whole free GPU
 * capacity whatever the node, so it moves every node's score by the same amount and never changes
 * a choice. A memory-aware profile ({@code fgd-mem}, our extension) also keeps each shape's memory
 * request, so that a node whose free memory is too small for a task counts as fragmented for it
 * like one short of CPU.
 */
public final class WorkloadProfile {
    /** The FGD experiments' {@code podPopularityThreshold} (95%) and {@code podIncreaseStep} (1). */
    public static final double DEFAULT_COVERAGE = 0.95;
    private static final int STEP = 1;
    private static final int MAX_SHAPES = 4096;

    /** One task shape and its share of the kept shapes. */
    public record TaskClass(double share, int gpus, int gpuMilli, long cpuMilli, long memoryMib, Set<String> models) {
        boolean acceptsModel(String model) {
            return models.isEmpty() || models.contains(model);
        }
    }

    private record Shape(int gpus, int gpuMilli, long cpuMilli, long memoryMib, Set<String> models) {
    }

    private final double coverage;
    private final boolean memoryAware;
    private final Map<Shape, long[]> counts = new HashMap<>();
    private List<TaskClass> classes = List.of();
    private long observed;
    private long builtAt = -1;

    /** The paper's target workload: GPU, CPU and GPU model requests, 95% coverage. */
    public WorkloadProfile() {
        this(DEFAULT_COVERAGE, false);
    }

    /**
     * @param coverage    share of observed tasks the kept shapes must cover, in (0, 1]
     * @param memoryAware keep memory requests in the shapes (not in the paper)
     */
    public WorkloadProfile(double coverage, boolean memoryAware) {
        if (coverage <= 0 || coverage > 1) {
            throw new IllegalArgumentException("coverage must be in (0, 1], was " + coverage);
        }
        this.coverage = coverage;
        this.memoryAware = memoryAware;
    }

    public void observe(Demand d) {
        if (d.gpus() == 0) {
            return;
        }
        Shape s = new Shape(d.gpus(), d.gpuMilli(), d.cpuMilli(), memoryAware ? d.memoryMib() : 0, d.gpuModels());
        long[] c = counts.get(s);
        if (c == null) {
            if (counts.size() >= MAX_SHAPES) {
                return; // bounded memory: the popular shapes are long known by now
            }
            c = new long[1];
            counts.put(s, c);
        }
        c[0]++;
        observed++;
    }

    /**
     * The current classes; rebuilt lazily (at most once per doubling of what was observed or per
     * 1,000 tasks), and the same list object until then, so callers may cache against it.
     */
    public List<TaskClass> classes() {
        if (builtAt < 0 || observed >= builtAt * 2 || (observed - builtAt) >= 1000) {
            rebuild();
        }
        return classes;
    }

    private void rebuild() {
        builtAt = observed;
        List<Map.Entry<Shape, long[]>> entries = new ArrayList<>(counts.entrySet());
        entries.sort(Comparator.<Map.Entry<Shape, long[]>>comparingLong(e -> -e.getValue()[0])
                .thenComparing(e -> e.getKey().toString()));
        double wanted = coverage * observed;
        long covered = 0;
        int kept = 0;
        while (kept < entries.size() && covered < wanted) {
            int upTo = Math.min(entries.size(), kept + STEP);
            for (; kept < upTo; kept++) {
                covered += entries.get(kept).getValue()[0];
            }
        }
        List<TaskClass> out = new ArrayList<>(kept);
        for (var e : entries.subList(0, kept)) {
            Shape s = e.getKey();
            out.add(new TaskClass((double) e.getValue()[0] / covered, s.gpus, s.gpuMilli, s.cpuMilli, s.memoryMib,
                    s.models));
        }
        classes = List.copyOf(out);
    }
}
