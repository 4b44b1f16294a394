package dev.continuum.engine.app;

import dev.continuum.engine.config.EngineConfig;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Retention of finished runs: a run that SUCCEEDED, FAILED or was cancelled is released (its record, log and sealed
 * grants removed) once it finished longer ago than {@code continuum.retention.finished-runs}, and on request. Active
 * and INACTIVE runs are never touched. A person purges their own runs; an administrator everyone's.
 */
@ApplicationScoped
public class RunRetention {

    /** Runs removed per statement: short transactions, so purging a large backlog never holds the runs table long. */
    static final int BATCH = 500;

    /** What a purge removed: the runs that finished before the cutoff, everyone's or one owner's. */
    public record Purged(int runs, Instant finishedBefore, Optional<String> owner) {}

    private final RunStore store;
    private final Clock clock;
    private final Optional<Duration> keep;

    public RunRetention(RunStore store, Clock clock, EngineConfig config) {
        this.store = store;
        this.clock = clock;
        this.keep = config.retention().finishedRuns();
    }

    /** How long finished runs are kept; empty: until someone purges them. */
    public Optional<Duration> keep() {
        return keep;
    }

    /** The caller's purge: runs finished before {@code cutoff}, the caller's own unless they administer Continuum. */
    public Uni<Purged> purge(Instant cutoff, Viewer caller, boolean administrator) {
        Optional<String> owner = administrator || !caller.restricted() ? Optional.empty() : Optional.of(caller.id());
        return purgeAll(cutoff, owner, 0).map(n -> new Purged(n, cutoff, owner));
    }

    /** The timer's purge: everything that finished longer ago than the retention; nothing without one. */
    public Uni<Purged> purgeExpired() {
        if (keep.isEmpty()) {
            return Uni.createFrom().item(new Purged(0, Instant.EPOCH, Optional.empty()));
        }
        Instant cutoff = clock.instant().minus(keep.get());
        return purgeAll(cutoff, Optional.empty(), 0).map(n -> new Purged(n, cutoff, Optional.empty()));
    }

    private Uni<Integer> purgeAll(Instant cutoff, Optional<String> owner, int sofar) {
        return store.purgeFinished(cutoff, owner, BATCH)
                .flatMap(n -> n < BATCH ? Uni.createFrom().item(sofar + n) : purgeAll(cutoff, owner, sofar + n));
    }
}
