package dev.continuum.placement.service.app;

/**
 * Tells the client that asked for a job that the planner placed it again (its site went away): the provider then
 * sends the job on without asking (docs/placement.md "Re-placements are pushed"). At most once and best effort — a
 * push that cannot leave is logged and the provider's slow poll of {@code GET /placements/{id}} finds the decision.
 */
public interface ReplacementPush {

    /** Nobody to tell (no broker): providers read re-placements from the log. */
    ReplacementPush NONE = (owner, lostSite, decision) -> {};

    /** {@code decision} placed the job {@code decision.requestId()} again after {@code lostSite} went away. */
    void replaced(String owner, String lostSite, DecisionRecord decision);
}
