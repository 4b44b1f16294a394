package dev.continuum.placement.planner;

/** Something the planner learns from after a decision: the cost model and the training queues move with it. */
public sealed interface Observation {
    long atMillis();

    /**
     * A job finished on {@code site}. For inference, {@code computeMillis} (model run time, queue and transfer
     * excluded) teaches the per-model, per-device cost; for training it frees the job's GPUs.
     */
    record JobCompleted(String requestId, String site, String model, long computeMillis, long atMillis)
            implements Observation {
        public JobCompleted {
            if (computeMillis < 0) {
                throw new IllegalArgumentException("computeMillis: must not be negative");
            }
        }
    }

    /** The transfer provider measured {@code bytesPerSecond} moving data between two endpoints. */
    record TransferMeasured(String fromEndpoint, String toEndpoint, double bytesPerSecond, long atMillis)
            implements Observation {
        public TransferMeasured {
            if (!(bytesPerSecond > 0)) {
                throw new IllegalArgumentException("bytesPerSecond: must be positive");
            }
        }
    }

    /** Time passed with nothing else happening: lets policies that act on time (LAS demotion) take a round. */
    record Tick(long atMillis) implements Observation {
    }
}
