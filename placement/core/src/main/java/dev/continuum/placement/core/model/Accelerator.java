package dev.continuum.placement.core.model;

/** An accelerator type: model name (e.g. {@code V100M32}, {@code T4}) and device memory. */
public record Accelerator(String model, long memoryMib) {
}
