package dev.continuum.placement.policy;

import dev.continuum.placement.model.Demand;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The target workload FGD measures fragmentation against: the popularity of GPU task shapes,
 * learned from arrivals as they stream in (bounded: the most frequent {@code maxClasses}
 * shapes). CPU-only tasks are left out: they never use a GPU, so they cannot make one unusable.
 */
public final class WorkloadProfile {
    /** One task shape and its share of arrivals. */
    public record TaskClass(double share, int gpus, int gpuMilli, long cpuMilli, long memoryMib, Set<String> models) {
        boolean acceptsModel(String model) {
            return models.isEmpty() || models.contains(model);
        }
    }

    private record Shape(int gpus, int gpuMilli, long cpuMilli, long memoryMib, Set<String> models) {
    }

    private final int maxClasses;
    private final Map<Shape, long[]> counts = new HashMap<>();
    private List<TaskClass> classes = List.of();
    private long observed;
    private long builtAt = -1;

    public WorkloadProfile() {
        this(32);
    }

    public WorkloadProfile(int maxClasses) {
        this.maxClasses = maxClasses;
    }

    public void observe(Demand d) {
        if (d.gpus() == 0) {
            return;
        }
        // CPU and memory rounded so that near-identical pods share a class
        Shape s = new Shape(d.gpus(), d.gpuMilli(), roundUp(d.cpuMilli(), 1000), roundUp(d.memoryMib(), 1024),
                d.gpuModels());
        long[] c = counts.get(s);
        if (c == null) {
            if (counts.size() >= 4096) {
                return; // bounded memory: the popular shapes are long known by now
            }
            c = new long[1];
            counts.put(s, c);
        }
        c[0]++;
        observed++;
    }

    private static long roundUp(long v, long step) {
        return (v + step - 1) / step * step;
    }

    /** The current classes; rebuilt lazily, at most once per doubling of what was observed. */
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
        List<Map.Entry<Shape, long[]>> top = entries.subList(0, Math.min(maxClasses, entries.size()));
        double total = top.stream().mapToLong(e -> e.getValue()[0]).sum();
        List<TaskClass> out = new ArrayList<>(top.size());
        for (var e : top) {
            Shape s = e.getKey();
            out.add(new TaskClass(e.getValue()[0] / total, s.gpus, s.gpuMilli, s.cpuMilli, s.memoryMib, s.models));
        }
        classes = List.copyOf(out);
    }
}
