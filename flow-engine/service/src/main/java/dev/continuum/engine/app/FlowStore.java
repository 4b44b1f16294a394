package dev.continuum.engine.app;

import io.smallrye.mutiny.Uni;

import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** Where flows and their versions are kept. */
public interface FlowStore {
    Uni<Void> create(FlowRecord flow);

    /** The newest version, unless the flow was deleted. */
    Uni<Optional<FlowRecord>> find(UUID id);

    /** A specific version, also of a deleted flow (its runs still need it). */
    Uni<Optional<FlowRecord>> findVersion(UUID id, int version);

    /** One page of the flows matching {@code query} that the viewer may see ({@link Access#seesFlow}, in SQL). */
    Uni<Slice<FlowRecord>> list(FlowQuery query, Viewer viewer);

    /** Adds {@code flow.version()} as the new current version. */
    Uni<Void> addVersion(FlowRecord flow);

    Uni<Boolean> delete(UUID id);
}
