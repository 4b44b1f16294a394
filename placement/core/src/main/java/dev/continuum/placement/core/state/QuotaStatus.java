package dev.continuum.placement.core.state;

/** Whether a job may start given its partition's quota. */
public enum QuotaStatus {
    /** Within its partition's quota (or no quota applies). */
    GUARANTEED,
    /** Over quota; may run on idle GPUs lent by other partitions, and be reclaimed. */
    BORROW,
    /** Over quota and lending is off. */
    DENIED
}
