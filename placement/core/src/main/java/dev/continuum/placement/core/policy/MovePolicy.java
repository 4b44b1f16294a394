package dev.continuum.placement.core.policy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Moves checkpointable training jobs between <em>pools</em> — the partitions of a cluster and the clusters of
 * other sites, each placed by its own per-pool policy — when the move pays for itself (policy switch
 * {@code +move}). The per-pool policies never see another pool; this one sees them all and decides, each round:
 * <ol>
 *   <li>a job waiting in a pool that cannot run it now goes to another pool that can (it waits no longer);</li>
 *   <li>a running job is moved out of a pool where a job of at least its priority waits for its GPUs, to a pool
 *       that can run it now (the waiter starts; the mover goes on elsewhere).</li>
 * </ol>
 * A move is worth {@code benefit} GPU-seconds — the GPUs that start now times how long they would otherwise wait,
 * estimated as the soonest any running job of that pool ends — and costs the mover's GPUs times the seconds it
 * makes no progress: the checkpoint carried over the link when the site changes (size / bandwidth) plus the
 * restart. It is made only when {@code benefit > margin × cost}. Against ping-pong: a job stays at least
 * {@code minResidenceSeconds} where it was put; a target must have room for the mover <em>after</em> its own
 * waiters, so a move never creates the contention that would justify moving back; and each job moves at most once
 * a round. Pure: the same class runs online (the training provider) and in {@code sim.PoolSimulator}.
 */
public final class MovePolicy {

    /** A pool: its GPUs of {@code gpuModel} ({@code ""}: unnamed), {@code freeGpus} of them free now, at {@code site}. */
    public record Pool(String name, String site, String gpuModel, int totalGpus, int freeGpus) {
        public Pool {
            if (totalGpus < 0 || freeGpus < 0 || freeGpus > totalGpus) {
                throw new IllegalArgumentException("pool " + name + ": 0 <= free <= total GPUs");
            }
        }
    }

    public enum Phase { RUNNING, WAITING }

    /**
     * A job as the policy sees it: where it is ({@code pool}), whether it runs there or waits, its GPUs, the GPU
     * models it accepts (empty: any), priority (higher first), the size of the checkpoint a move would carry,
     * the run time it may still need (seconds; its time limit minus what it ran is a safe upper bound), when it
     * was last put where it is (seconds, the caller's clock), and whether its checkpoint can leave its site.
     * A job the caller does not want moved (already moving, pinned) is left out.
     */
    public record JobView(String id, String pool, Phase phase, int gpus, Set<String> models, int priority,
                          long checkpointBytes, double remainingSeconds, double placedAtSeconds, boolean crossSite) {
        public JobView {
            models = Set.copyOf(models);
        }
    }

    /**
     * What a move costs and how reluctant the policy is: {@code bytesPerSecond} between sites (a checkpoint moved
     * within a site is not copied), {@code restartSeconds} without progress for any move (checkpoint, stop, start,
     * load), {@code minResidenceSeconds} before a job may move again, {@code margin} the benefit must exceed the
     * cost by.
     */
    public record Costs(double bytesPerSecond, double restartSeconds, double minResidenceSeconds, double margin) {
        /** 1 Gbit/s between sites, a minute to restart, five minutes' residence, twice the cost. */
        public static final Costs DEFAULT = new Costs(125_000_000, 60, 300, 2);

        public Costs {
            if (!(bytesPerSecond > 0) || restartSeconds < 0 || minResidenceSeconds < 0 || margin < 1) {
                throw new IllegalArgumentException("move costs: bytesPerSecond > 0, restartSeconds >= 0, "
                        + "minResidenceSeconds >= 0, margin >= 1");
            }
        }

        public Costs withMinResidenceSeconds(double v) {
            return new Costs(bytesPerSecond, restartSeconds, v, margin);
        }

        public Costs withRestartSeconds(double v) {
            return new Costs(bytesPerSecond, v, minResidenceSeconds, margin);
        }

        public Costs withBytesPerSecond(double v) {
            return new Costs(v, restartSeconds, minResidenceSeconds, margin);
        }
    }

    /** Move job {@code jobId} from pool {@code from} to pool {@code to}; {@code reason} says why in words. */
    public record Move(String jobId, String from, String to, String reason, double benefitGpuSeconds,
                       double costGpuSeconds) {
    }

    private final Costs costs;

    public MovePolicy(Costs costs) {
        this.costs = costs;
    }

    public Costs costs() {
        return costs;
    }

    /** The seconds {@code job} makes no progress when moved from {@code from} to {@code to}. */
    public double pauseSeconds(JobView job, Pool from, Pool to) {
        double carry = from.site().equals(to.site()) ? 0 : job.checkpointBytes() / costs.bytesPerSecond();
        return costs.restartSeconds() + carry;
    }

    /** This round's moves, at most one per job. */
    public List<Move> decide(List<Pool> pools, List<JobView> jobs, double nowSeconds) {
        Map<String, Pool> byName = new HashMap<>();
        Map<String, Integer> free = new HashMap<>();
        Map<String, Integer> waitingGpus = new HashMap<>();
        for (Pool p : pools) {
            byName.put(p.name(), p);
            free.put(p.name(), p.freeGpus());
        }
        List<JobView> known = jobs.stream().filter(j -> byName.containsKey(j.pool())).toList();
        for (JobView j : known) {
            if (j.phase() == Phase.WAITING) {
                waitingGpus.merge(j.pool(), j.gpus(), Integer::sum);
            }
        }
        Comparator<JobView> firstServed = Comparator.comparingInt(JobView::priority).reversed()
                .thenComparingDouble(JobView::placedAtSeconds).thenComparing(JobView::id);
        List<JobView> waiters = known.stream().filter(j -> j.phase() == Phase.WAITING).sorted(firstServed).toList();
        List<Move> moves = new ArrayList<>();
        Set<String> moved = new HashSet<>();

        // 1. a waiter another pool can run now
        for (JobView w : waiters) {
            Pool at = byName.get(w.pool());
            if (free.get(at.name()) >= w.gpus() || !resident(w, nowSeconds)) {
                continue; // its own pool starts it, or it was just put there
            }
            // nothing runs there to end: the job waits for something else (a carry, a bigger pool), not for GPUs
            double wait = soonestEnd(known, at.name(), moved);
            Optional<Pool> to = target(w, at, pools, free, waitingGpus);
            if (to.isEmpty()) {
                continue;
            }
            double benefit = w.gpus() * wait;
            double cost = w.gpus() * pauseSeconds(w, at, to.get());
            if (benefit > costs.margin() * cost) {
                moves.add(new Move(w.id(), at.name(), to.get().name(), String.format(java.util.Locale.ROOT,
                        "%s has no %d free GPUs (the first frees in about %.0f s); %s can run it now, "
                                + "for %.0f s without progress", at.name(), w.gpus(), wait, to.get().name(),
                        pauseSeconds(w, at, to.get())), benefit, cost));
                take(w, at, to.get(), free, waitingGpus, moved);
            }
        }

        // 2. a running job that a waiter of at least its priority needs the GPUs of
        for (JobView w : waiters) {
            if (moved.contains(w.id())) {
                continue;
            }
            Pool at = byName.get(w.pool());
            int missing = w.gpus() - free.get(at.name());
            if (missing <= 0 || w.gpus() > at.totalGpus()) {
                continue;
            }
            double wait = soonestEnd(known, at.name(), moved);
            List<JobView> victims = known.stream()
                    .filter(r -> r.phase() == Phase.RUNNING && r.pool().equals(at.name()) && !moved.contains(r.id())
                            && r.priority() <= w.priority() && resident(r, nowSeconds))
                    .sorted(Comparator.comparingInt(JobView::priority).thenComparing(JobView::gpus,
                            Comparator.reverseOrder()).thenComparing(JobView::id))
                    .toList();
            Map<String, Integer> tryFree = new HashMap<>(free);
            Map<String, Integer> tryWaiting = new HashMap<>(waitingGpus);
            List<Move> planned = new ArrayList<>();
            Set<String> tryMoved = new HashSet<>(moved);
            double cost = 0;
            int freed = 0;
            for (JobView r : victims) {
                if (freed >= missing) {
                    break;
                }
                Optional<Pool> to = target(r, at, pools, tryFree, tryWaiting);
                if (to.isEmpty()) {
                    continue;
                }
                double pause = pauseSeconds(r, at, to.get());
                cost += r.gpus() * pause;
                freed += r.gpus();
                planned.add(new Move(r.id(), at.name(), to.get().name(), String.format(java.util.Locale.ROOT,
                        "%s waits in %s for %d GPUs (priority %d, the first frees in about %.0f s); %s can run this "
                                + "job now, for %.0f s without progress", w.id(), at.name(), w.gpus(), w.priority(),
                        wait, to.get().name(), pause), 0, r.gpus() * pause));
                take(r, at, to.get(), tryFree, tryWaiting, tryMoved);
            }
            double benefit = w.gpus() * wait;
            if (freed >= missing && benefit > costs.margin() * cost) {
                for (Move m : planned) {
                    moves.add(new Move(m.jobId(), m.from(), m.to(), m.reason(), benefit, m.costGpuSeconds()));
                }
                free.clear();
                free.putAll(tryFree);
                free.merge(at.name(), -w.gpus(), Integer::sum); // the waiter starts in what was freed
                waitingGpus.clear();
                waitingGpus.putAll(tryWaiting);
                waitingGpus.merge(at.name(), -w.gpus(), Integer::sum);
                moved.addAll(tryMoved);
            }
        }
        return moves;
    }

    private boolean resident(JobView j, double now) {
        return now - j.placedAtSeconds() >= costs.minResidenceSeconds();
    }

    /** The soonest a running job of {@code pool} ends (a waiter there waits at least that long); 0 when none runs. */
    private static double soonestEnd(List<JobView> jobs, String pool, Set<String> moved) {
        return jobs.stream().filter(j -> j.phase() == Phase.RUNNING && j.pool().equals(pool) && !moved.contains(j.id()))
                .mapToDouble(JobView::remainingSeconds).min().orElse(0);
    }

    /**
     * The pool {@code job} should go to from {@code at}: one with room for it after its own waiters, of a model it
     * accepts, at its own site unless its checkpoint may leave; the cheapest move first, then the most room.
     */
    private Optional<Pool> target(JobView job, Pool at, List<Pool> pools, Map<String, Integer> free,
                                  Map<String, Integer> waitingGpus) {
        return pools.stream()
                .filter(p -> !p.name().equals(at.name()))
                .filter(p -> job.crossSite() || p.site().equals(at.site()))
                .filter(p -> job.models().isEmpty() || job.models().contains(p.gpuModel()))
                .filter(p -> free.get(p.name()) - waitingGpus.getOrDefault(p.name(), 0) >= job.gpus())
                .min(Comparator.<Pool>comparingDouble(p -> pauseSeconds(job, at, p))
                        .thenComparing(p -> -free.get(p.name())).thenComparing(Pool::name));
    }

    private static void take(JobView job, Pool from, Pool to, Map<String, Integer> free,
                             Map<String, Integer> waitingGpus, Set<String> moved) {
        moved.add(job.id());
        free.merge(to.name(), -job.gpus(), Integer::sum);
        if (job.phase() == Phase.RUNNING) {
            free.merge(from.name(), job.gpus(), Integer::sum);
        } else {
            waitingGpus.merge(from.name(), -job.gpus(), Integer::sum);
        }
    }
}
