package dev.continuum.placement.simulator;

import dev.continuum.placement.core.policy.MovePolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Checkpointable training jobs over several pools (partitions, sites), each pool starting what waits in it by
 * priority then arrival, as the training provider's per-partition planners do, and — when given one — the
 * {@link MovePolicy} the provider runs online taking a round every {@code roundSeconds}. A moved job makes no
 * progress for the policy's own {@link MovePolicy#pauseSeconds} (its checkpoint carried, its restart) while it
 * holds its GPUs at the target, which is what the move really costs. Time advances in whole seconds;
 * deterministic (no clock, no randomness, ties by name).
 */
public final class PoolSimulator {

    /** A job arriving at {@code arrival} s in {@code pool}, needing {@code workSeconds} of run on {@code gpus}. */
    public record JobSpec(String id, long arrival, String pool, int gpus, Set<String> models, int priority,
                          long workSeconds, long checkpointBytes) {
    }

    /** What happened to one job: when it finished, and the pools it went through (its first is where it arrived). */
    public record Outcome(String id, long arrival, long finished, List<String> pools) {
        public long completionSeconds() {
            return finished - arrival;
        }

        public int moves() {
            return pools.size() - 1;
        }
    }

    /** Every job's outcome, in arrival order. */
    public record Result(List<Outcome> outcomes) {
        public double averageCompletionSeconds() {
            return outcomes.stream().mapToLong(Outcome::completionSeconds).average().orElse(0);
        }

        public long makespan() {
            return outcomes.stream().mapToLong(Outcome::finished).max().orElse(0);
        }

        public int moves() {
            return outcomes.stream().mapToInt(Outcome::moves).sum();
        }
    }

    private enum Phase { PENDING, WAITING, PAUSED, RUNNING, DONE }

    private static final class Sim {
        final JobSpec spec;
        Phase phase = Phase.PENDING;
        String pool;
        long done;
        long pausedUntil;
        long placedAt;
        long finished;
        final List<String> pools = new ArrayList<>();

        Sim(JobSpec spec) {
            this.spec = spec;
            this.pool = spec.pool();
            pools.add(spec.pool());
        }
    }

    private final List<MovePolicy.Pool> pools;
    private final Optional<MovePolicy> moves;
    private final long roundSeconds;

    /** {@code pools} with their GPUs all free; without a {@code moves} policy every job stays where it arrived. */
    public PoolSimulator(List<MovePolicy.Pool> pools, Optional<MovePolicy> moves, long roundSeconds) {
        this.pools = List.copyOf(pools);
        this.moves = moves;
        this.roundSeconds = Math.max(1, roundSeconds);
    }

    public Result run(List<JobSpec> jobs) {
        Map<String, Integer> free = new LinkedHashMap<>();
        pools.forEach(p -> free.put(p.name(), p.totalGpus()));
        List<Sim> sims = jobs.stream().sorted(Comparator.comparingLong(JobSpec::arrival).thenComparing(JobSpec::id))
                .map(Sim::new).toList();
        long limit = jobs.stream().mapToLong(j -> j.arrival() + j.workSeconds()).max().orElse(0) * 100 + 1000;
        for (long t = 0; sims.stream().anyMatch(s -> s.phase != Phase.DONE); t++) {
            if (t > limit) {
                throw new IllegalStateException("jobs never finish: one needs more GPUs than its pool has");
            }
            for (Sim s : sims) {
                if (s.phase == Phase.RUNNING && ++s.done >= s.spec.workSeconds()) {
                    s.phase = Phase.DONE;
                    s.finished = t;
                    free.merge(s.pool, s.spec.gpus(), Integer::sum);
                } else if (s.phase == Phase.PAUSED && t >= s.pausedUntil) {
                    s.phase = Phase.RUNNING;
                } else if (s.phase == Phase.PENDING && s.spec.arrival() <= t) {
                    s.phase = Phase.WAITING;
                    s.placedAt = t;
                }
            }
            start(sims, free, t);
            if (moves.isPresent() && t % roundSeconds == 0) {
                round(moves.get(), sims, free, t);
                start(sims, free, t);
            }
        }
        return new Result(sims.stream().map(s -> new Outcome(s.spec.id(), s.spec.arrival(), s.finished,
                List.copyOf(s.pools))).toList());
    }

    /** Each pool starts what waits in it and fits, highest priority first, then first come. */
    private void start(List<Sim> sims, Map<String, Integer> free, long t) {
        sims.stream().filter(s -> s.phase == Phase.WAITING)
                .sorted(Comparator.comparingInt((Sim s) -> -s.spec.priority()).thenComparingLong(s -> s.placedAt)
                        .thenComparing(s -> s.spec.id()))
                .forEach(s -> {
                    if (free.get(s.pool) >= s.spec.gpus() && fitsModel(s, s.pool)) {
                        free.merge(s.pool, -s.spec.gpus(), Integer::sum);
                        s.phase = Phase.RUNNING;
                    }
                });
    }

    private void round(MovePolicy policy, List<Sim> sims, Map<String, Integer> free, long t) {
        List<MovePolicy.Pool> now = pools.stream().map(p -> new MovePolicy.Pool(p.name(), p.site(), p.gpuModel(),
                p.totalGpus(), free.get(p.name()))).toList();
        Map<String, Sim> byId = new LinkedHashMap<>();
        List<MovePolicy.JobView> views = new ArrayList<>();
        for (Sim s : sims) {
            if (s.phase == Phase.RUNNING || s.phase == Phase.WAITING) {
                byId.put(s.spec.id(), s);
                views.add(new MovePolicy.JobView(s.spec.id(), s.pool, s.phase == Phase.RUNNING
                        ? MovePolicy.Phase.RUNNING : MovePolicy.Phase.WAITING, s.spec.gpus(), s.spec.models(),
                        s.spec.priority(), s.spec.checkpointBytes(), s.spec.workSeconds() - s.done, s.placedAt, true));
            }
        }
        Map<String, MovePolicy.Pool> poolByName = new LinkedHashMap<>();
        now.forEach(p -> poolByName.put(p.name(), p));
        for (MovePolicy.Move m : policy.decide(now, views, t)) {
            Sim s = byId.get(m.jobId());
            MovePolicy.JobView v = views.stream().filter(j -> j.id().equals(m.jobId())).findFirst().orElseThrow();
            if (s.phase == Phase.RUNNING) {
                free.merge(s.pool, s.spec.gpus(), Integer::sum);
            }
            free.merge(m.to(), -s.spec.gpus(), Integer::sum);
            s.pausedUntil = t + (long) Math.ceil(policy.pauseSeconds(v, poolByName.get(m.from()), poolByName.get(m.to())));
            s.phase = Phase.PAUSED;
            s.pool = m.to();
            s.placedAt = t;
            s.pools.add(m.to());
        }
    }

    private boolean fitsModel(Sim s, String pool) {
        return s.spec.models().isEmpty() || pools.stream().anyMatch(p -> p.name().equals(pool)
                && s.spec.models().contains(p.gpuModel()));
    }
}
