package dev.continuum.placement.core.state;

/** What a policy decided in one scheduling round. */
public sealed interface Decision permits Decision.Start, Decision.Preempt, Decision.Migrate, Decision.Resize {
    String jobId();

    /** Run a waiting job; {@code borrowed} means it runs on another partition's idle quota. */
    record Start(String jobId, Placement placement, boolean borrowed) implements Decision {
    }

    /** Stop a running job (checkpointed) and put it back in the queue. */
    record Preempt(String jobId, Reason reason) implements Decision {
    }

    /** Move a running job (checkpoint, restore elsewhere). */
    record Migrate(String jobId, Placement from, Placement to) implements Decision {
    }

    /** Change the GPUs of a running elastic job. */
    record Resize(String jobId, Placement from, Placement to) implements Decision {
    }

    enum Reason { PRIORITY, RECLAIM }
}
