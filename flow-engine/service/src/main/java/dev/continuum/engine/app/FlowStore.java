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

    /**
     * The newest version as this process last saw it, without a database read when it has one; it may be stale, so a
     * caller acts on it only with a check that it is still current (a run start: {@link RunStore#insertIfCurrent}).
     */
    default Uni<Optional<FlowRecord>> findLastSeen(UUID id) {
        return find(id);
    }

    /** A specific version, also of a deleted flow (its runs still need it). */
    Uni<Optional<FlowRecord>> findVersion(UUID id, int version);

    /** A flow at one version, as the runs started from it name it. */
    record VersionKey(UUID id, int version) {}

    /**
     * Several versions at once, also of deleted flows (a page of runs names a few): those not found are left out.
     * This default asks for each in turn; a store that can answer in one query does.
     */
    default Uni<java.util.Map<VersionKey, FlowRecord>> findVersions(java.util.Set<VersionKey> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(java.util.Map.of());
        }
        return Uni.join().all(keys.stream().map(k -> findVersion(k.id(), k.version())).toList()).andFailFast()
                .map(found -> found.stream().flatMap(Optional::stream)
                        .collect(java.util.stream.Collectors.toMap(f -> new VersionKey(f.id(), f.version()), f -> f)));
    }

    /** One page of the flows matching {@code query} that the viewer may see ({@link Access#seesFlow}, in SQL). */
    Uni<Slice<FlowRecord>> list(FlowQuery query, Viewer viewer);

    /** Adds {@code flow.version()} as the new current version, saved by {@code author}. */
    Uni<Void> addVersion(FlowRecord flow, String author);

    /** A version as it was saved (its metadata then, its author), also of a deleted flow. */
    Uni<Optional<FlowVersion>> findSaved(UUID id, int version);

    /** Which page of a flow's versions: the one after the sort keys {@code after} (empty: the first). */
    record VersionQuery(List<String> after, int limit) {
        public VersionQuery {
            after = List.copyOf(after);
        }
    }

    /** One page of the flow's versions, newest first, each with what it changed from the one before. */
    Uni<Slice<FlowVersion.Change>> history(UUID id, VersionQuery query);

    Uni<Boolean> delete(UUID id);
}
