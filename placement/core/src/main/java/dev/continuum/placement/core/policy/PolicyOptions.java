package dev.continuum.placement.core.policy;

/**
 * Switches of a {@link StandardPolicy}.
 *
 * @param preempt     stop lower-priority running jobs for a waiting one (defaults to the order's choice)
 * @param migrate     move migratable jobs to make room on one node for a waiting job (defragmentation)
 * @param lend        partitions lend idle quota; the lender reclaims it by preemption
 * @param synergy     allocate CPU by job sensitivity (less on tight nodes, more on idle ones)
 * @param consolidate keep multi-node jobs in as few racks as possible
 * @param elastic     grow elastic jobs onto idle GPUs when nobody waits, shrink them when someone does
 * @param lookahead   backfill depth: how many waiting jobs one round may pass over (jobs it starts do
 *                    not count); bounds both the cost of a long queue and how far a job may jump ahead
 * @param seed        seeds the per-job CPU sensitivity used by {@code synergy}
 * @param roomMakingInterval simulated seconds between rounds that may preempt, reclaim or migrate
 *                    (Tiresias-style lease; 0 = every round). Searching victims costs a scan of
 *                    the running jobs, so doing it at every event does not scale to 1M-job traces.
 */
public record PolicyOptions(boolean preempt, boolean migrate, boolean lend, boolean synergy, boolean consolidate,
                            boolean elastic, int lookahead, long seed, double roomMakingInterval) {
    public static final double DEFAULT_ROOM_MAKING_INTERVAL = 60;

    public static PolicyOptions defaults(boolean preempt) {
        return new PolicyOptions(preempt, false, false, false, true, false, 128, 42, DEFAULT_ROOM_MAKING_INTERVAL);
    }

    public PolicyOptions withPreempt(boolean v) { return new PolicyOptions(v, migrate, lend, synergy, consolidate, elastic, lookahead, seed, roomMakingInterval); }
    public PolicyOptions withMigrate(boolean v) { return new PolicyOptions(preempt, v, lend, synergy, consolidate, elastic, lookahead, seed, roomMakingInterval); }
    public PolicyOptions withLend(boolean v) { return new PolicyOptions(preempt, migrate, v, synergy, consolidate, elastic, lookahead, seed, roomMakingInterval); }
    public PolicyOptions withSynergy(boolean v) { return new PolicyOptions(preempt, migrate, lend, v, consolidate, elastic, lookahead, seed, roomMakingInterval); }
    public PolicyOptions withConsolidate(boolean v) { return new PolicyOptions(preempt, migrate, lend, synergy, v, elastic, lookahead, seed, roomMakingInterval); }
    public PolicyOptions withElastic(boolean v) { return new PolicyOptions(preempt, migrate, lend, synergy, consolidate, v, lookahead, seed, roomMakingInterval); }
    public PolicyOptions withLookahead(int v) { return new PolicyOptions(preempt, migrate, lend, synergy, consolidate, elastic, v, seed, roomMakingInterval); }
    public PolicyOptions withSeed(long v) { return new PolicyOptions(preempt, migrate, lend, synergy, consolidate, elastic, lookahead, v, roomMakingInterval); }
    public PolicyOptions withRoomMakingInterval(double v) { return new PolicyOptions(preempt, migrate, lend, synergy, consolidate, elastic, lookahead, seed, v); }
}
