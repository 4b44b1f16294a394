package dev.continuum.provider.training.core;

/** A training action's state as users see it in {@code details.state}. */
public enum JobState {
    QUEUED, RUNNING, CHECKPOINTING, PREEMPTED, MIGRATING, RESIZING, SUCCEEDED, FAILED, CANCELLED;

    public boolean finished() {
        return this == SUCCEEDED || this == FAILED || this == CANCELLED;
    }

    public String wire() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
