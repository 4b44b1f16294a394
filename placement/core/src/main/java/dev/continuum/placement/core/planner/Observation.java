package dev.continuum.placement.core.planner;

/** Something the planner learns from after a decision: the cost model and the training queues move with it. */
public sealed interface Observation {
    long atMillis();

    /**
     * A job finished on {@code site}. For inference, {@code computeMillis} (the site's time per task: reading its
     * input and running the model, a batch's time shared by its tasks; queue and transfer excluded) teaches the
     * per-model, per-device cost, and {@code overheadMillis} — what the job took beyond moving its input, the site's
     * queue and its compute: the task's trip to the site and its result's back, decoding, spooling; {@link
     * #NOT_MEASURED} if the caller cannot tell — teaches the site's fixed overhead. {@code computeMillis} may be
     * {@link #NOT_MEASURED} too (a completion that only says the job is done): the cost model then learns no compute
     * time. {@code queuedMillis} — how long the task waited at the site for a worker, as the site measured it, or
     * {@link #NOT_MEASURED} — teaches the site's queue wait beyond what the tasks ahead of it explain (a worker that
     * takes a while to pick a task up even when free). For training it frees the job's GPUs.
     */
    record JobCompleted(String requestId, String site, String model, long computeMillis, long atMillis,
                        long overheadMillis, long queuedMillis) implements Observation {
        /** {@code overheadMillis} or {@code computeMillis} when the caller did not measure it. */
        public static final long NOT_MEASURED = -1;

        public JobCompleted {
            if (computeMillis < NOT_MEASURED) {
                throw new IllegalArgumentException("computeMillis: must not be negative (or -1: not measured)");
            }
            if (overheadMillis < NOT_MEASURED) {
                throw new IllegalArgumentException("overheadMillis: must not be negative (or -1: not measured)");
            }
            if (queuedMillis < NOT_MEASURED) {
                throw new IllegalArgumentException("queuedMillis: must not be negative (or -1: not measured)");
            }
        }

        /** Compute time and overhead: the queue wait was not measured. */
        public JobCompleted(String requestId, String site, String model, long computeMillis, long atMillis,
                            long overheadMillis) {
            this(requestId, site, model, computeMillis, atMillis, overheadMillis, NOT_MEASURED);
        }

        /** Compute time only: neither the overhead nor the queue wait was measured. */
        public JobCompleted(String requestId, String site, String model, long computeMillis, long atMillis) {
            this(requestId, site, model, computeMillis, atMillis, NOT_MEASURED, NOT_MEASURED);
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

    /**
     * Moving the input of the inference job {@code requestId} to {@code site}, where it was placed, took {@code
     * transferMillis} of wall time, as its runner measured it (the inference provider's {@code transferMillis}): the
     * link the input came over learns from it as from a transfer provider's rate report — the input's bytes, from the
     * request, over that time less the link's latency. Observed before the job's {@link JobCompleted}, while the
     * planner still holds the request; a job it does not hold teaches nothing.
     */
    record InputMoved(String requestId, String site, long transferMillis, long atMillis) implements Observation {
        public InputMoved {
            if (transferMillis <= 0) {
                throw new IllegalArgumentException("transferMillis: must be positive");
            }
        }
    }

    /** Time passed with nothing else happening: lets policies that act on time (LAS demotion) take a round. */
    record Tick(long atMillis) implements Observation {
    }
}
