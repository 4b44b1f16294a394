package dev.continuum.placement.core.policy;

/**
 * Which resource ran out for a task no node could take: the first of these, in this order, that
 * no node has together with the ones before it. So {@code CPU} means some node had the GPU room
 * but none of those had the CPU; {@code GPU_MODEL} means some node had everything but none of an
 * accepted model.
 */
public enum Shortage {
    /** No GPU anywhere has the free share a fractional task asks for. */
    GPU_SHARE("gpu_share"),
    /** No node has as many fully free GPUs as the task asks for. */
    WHOLE_GPU("whole_gpu"),
    CPU("cpu"),
    MEMORY("memory"),
    GPU_MODEL("gpu_model");

    private final String key;

    Shortage(String key) {
        this.key = key;
    }

    /** The metric and series name: {@code gpu_share}, {@code whole_gpu}, {@code cpu}, {@code memory}, {@code gpu_model}. */
    public String key() {
        return key;
    }
}
