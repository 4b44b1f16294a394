package dev.continuum.engine.app;

import io.smallrye.mutiny.Uni;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Which run started which: a child run started by a parent's Action state naming a flow. */
public interface RunLinks {

    /**
     * {@code parentToken}: the parent's waiting Action, where the child's finish is queued; {@code depth}: how many
     * parent links lie above the child (1 for the child of a top-level run).
     */
    record Link(UUID child, UUID parent, String parentState, String parentToken, String requestId, int depth) {}

    /** Records the link; a second add for the same child keeps the first. */
    Uni<Void> add(Link link);

    Uni<Optional<Link>> parentOf(UUID child);

    /** The children of {@code parent} that were started (a link whose start was refused has no run), oldest first. */
    Uni<List<UUID>> children(UUID parent);
}
