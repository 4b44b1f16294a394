package dev.continuum.placement.simulator;

import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.model.Partition;
import dev.continuum.placement.core.policy.Policy;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterState;
import dev.continuum.placement.core.state.Workload;
import dev.continuum.placement.simulator.trace.TraceReader;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * Discrete-event replay of a job stream against a cluster under one policy. Events are job
 * arrivals (pulled from the stream one at a time, so memory does not grow with trace length),
 * completions, and policy reconsiderations (Tiresias demotions). After every instant with events
 * the policy runs one round. Deterministic: ties break by event sequence, never by hash order or
 * wall clock.
 */
public final class Simulator {
    /** Called now and then with progress (jobs pulled, simulated seconds since first arrival). */
    @FunctionalInterface
    public interface Progress {
        void report(String policy, long jobs, double simSeconds);
    }

    private enum Kind { FINISH, RECONSIDER, WAKE_UP }

    private record Event(double time, long seq, Kind kind, ActiveJob job, long version) {
    }

    private final SimulationConfig config;

    public Simulator(SimulationConfig config) {
        this.config = config;
    }

    public SimulationResult run(Policy policy, Iterator<Job> trace) {
        return run(policy, trace, (p, j, t) -> { });
    }

    public SimulationResult run(Policy policy, Iterator<Job> trace, Progress progress) {
        long wallStart = System.nanoTime();
        long cpuStart = threadCpuNanos();
        ClusterState state = new ClusterState(config.cluster());
        Workload workload = new Workload(state, policy.order(), config.costs(), policy.lending());
        PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.time != b.time
                ? Double.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
        long[] seq = {0};
        Metrics metrics = null;
        Job next = trace.hasNext() ? trace.next() : null;
        double now = next == null ? 0 : next.arrival();
        metrics = new Metrics(config, now, state);
        long jobs = 0;
        long rejected = 0;
        long nextProgress = 10_000;
        double pendingWakeUp = Double.POSITIVE_INFINITY;
        while (next != null || !events.isEmpty()) {
            double tArrival = next == null ? Double.POSITIVE_INFINITY : Math.max(now, next.arrival());
            double tEvent = events.isEmpty() ? Double.POSITIVE_INFINITY : events.peek().time;
            double t = Math.min(tArrival, tEvent);
            metrics.advance(now, t, workload);
            now = t;
            boolean changed = false;
            while (!events.isEmpty() && events.peek().time <= now) {
                Event e = events.poll();
                if (e.kind == Kind.WAKE_UP) {
                    pendingWakeUp = Double.POSITIVE_INFINITY;
                    changed = true;
                    continue;
                }
                if (e.version != e.job.version() || !e.job.running()) {
                    continue; // superseded by a preemption, migration or resize
                }
                if (e.kind == Kind.FINISH) {
                    workload.complete(e.job, now);
                    metrics.finished(e.job, now);
                    policy.onCompletion(e.job, now);
                } else {
                    scheduleReconsideration(policy, events, seq, e.job, now);
                }
                changed = true;
            }
            while (next != null && next.arrival() <= now) {
                jobs++;
                policy.onArrival(next);
                metrics.arrived(next);
                if (workload.everFits(next) && quotaEverAllows(next, policy.lending())) {
                    workload.arrive(next, now);
                    changed = true;
                } else {
                    rejected++;
                }
                next = trace.hasNext() ? trace.next() : null;
                if (jobs >= nextProgress) {
                    progress.report(policy.name(), jobs, now - metrics.origin());
                    nextProgress += 10_000;
                }
            }
            if (changed) {
                Workload.Session session = workload.session(now);
                policy.schedule(session);
                for (ActiveJob j : session.changed()) {
                    if (j.running()) {
                        events.add(new Event(j.expectedFinish(), seq[0]++, Kind.FINISH, j, j.version()));
                        scheduleReconsideration(policy, events, seq, j, now);
                    }
                }
                double wake = policy.wakeUpAt(now);
                if (wake > now && wake < pendingWakeUp) {
                    pendingWakeUp = wake;
                    events.add(new Event(wake, seq[0]++, Kind.WAKE_UP, null, 0));
                }
            }
        }
        progress.report(policy.name(), jobs, now - metrics.origin());
        long skipped = trace instanceof TraceReader r ? r.skippedLines() : 0;
        long filtered = trace instanceof TraceReader r ? r.filteredRecords() : 0;
        return metrics.result(policy.name(), jobs, rejected, skipped, filtered, workload,
                (System.nanoTime() - wallStart) / 1_000_000, (threadCpuNanos() - cpuStart) / 1_000_000);
    }

    /**
     * CPU time of this thread: on a shared machine the simulation's own cost, where wall time also
     * counts the time other processes held the cores. -1 where the JVM cannot tell.
     */
    private static long threadCpuNanos() {
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    }

    private void scheduleReconsideration(Policy policy, PriorityQueue<Event> events, long[] seq, ActiveJob j, double now) {
        double at = policy.nextReconsideration(j, now);
        if (Double.isFinite(at) && at < j.expectedFinish()) {
            events.add(new Event(at, seq[0]++, Kind.RECONSIDER, j, j.version()));
        }
    }

    private boolean quotaEverAllows(Job job, boolean lending) {
        if (lending) {
            return true;
        }
        for (Partition p : config.cluster().partitions()) {
            if (p.name().equals(job.partition())) {
                return (long) p.quotaGpus() * 1000 >= job.demand().totalGpuMilli();
            }
        }
        return true;
    }

    /** Collects metrics as the simulation advances. */
    private static final class Metrics {
        private final SimulationConfig config;
        private final double origin;
        private final LogHistogram jct = new LogHistogram();
        private final LogHistogram wait = new LogHistogram();
        private final TimeSeries utilization;
        private final TimeSeries queue;
        private final TimeSeries fragmentation;
        private final Map<String, TimeSeries> partitionUtil = new LinkedHashMap<>();
        private final FragmentationMeter meter = new FragmentationMeter();
        private final double totalMilli;
        private double lastFragTime = Double.NEGATIVE_INFINITY;
        private double lastFrag;
        private double lastFinish;
        private long sloMet;

        Metrics(SimulationConfig config, double origin, ClusterState state) {
            this.config = config;
            this.origin = origin;
            int n = config.maxSamples();
            utilization = new TimeSeries("utilization", origin, 60, n);
            queue = new TimeSeries("queue_length", origin, 60, n);
            fragmentation = new TimeSeries("fragmented_gpus", origin, 60, n);
            for (Partition p : config.cluster().partitions()) {
                partitionUtil.put(p.name(), new TimeSeries("utilization_" + p.name(), origin, 60, n));
            }
            totalMilli = Math.max(1, state.totalGpus() * 1000.0);
            lastFinish = origin;
        }

        double origin() {
            return origin;
        }

        void arrived(Job job) {
            meter.profile().observe(job.demand());
        }

        void advance(double from, double to, Workload w) {
            if (!(to > from) || !Double.isFinite(to)) {
                return;
            }
            ClusterState s = w.state();
            utilization.add(from, to, s.allocatedGpuMilli() / totalMilli);
            queue.add(from, to, w.waitingCount());
            for (Partition p : config.cluster().partitions()) {
                double quota = Math.max(1, p.quotaGpus() * 1000.0);
                partitionUtil.get(p.name()).add(from, to, s.usedMilli(p.name()) / quota);
            }
            // fragmentation costs a scan of changed nodes: sample it about once per bucket
            if (from - lastFragTime >= fragmentation.width() / 2) {
                lastFrag = meter.measure(s);
                lastFragTime = from;
            }
            fragmentation.add(from, to, lastFrag);
        }

        void finished(ActiveJob j, double now) {
            Job job = j.job();
            double completion = now - job.arrival();
            jct.add(completion);
            wait.add(Math.max(0, j.firstStart() - job.arrival()));
            lastFinish = Math.max(lastFinish, now);
            double limit = job.deadline() > 0 ? job.deadline() : config.sloFactor() * Math.max(1, job.duration());
            if (completion <= limit + 1e-9) {
                sloMet++;
            }
        }

        SimulationResult result(String policy, long jobs, long rejected, long skipped, long filtered, Workload w, long wallMillis,
                                long cpuMillis) {
            Map<String, Double> partMeans = new LinkedHashMap<>();
            Map<String, List<double[]>> series = new LinkedHashMap<>();
            series.put(utilization.name(), utilization.points());
            series.put(queue.name(), queue.points());
            series.put(fragmentation.name(), fragmentation.points());
            partitionUtil.forEach((name, ts) -> {
                partMeans.put(name, ts.mean());
                series.put(ts.name(), ts.points());
            });
            List<double[]> cdf = new ArrayList<>(List.of(jct.cdf()));
            return new SimulationResult(policy, jobs, jct.count(), rejected, skipped, filtered, Summary.of(jct), Summary.of(wait),
                    lastFinish - origin, utilization.mean(), partMeans, fragmentation.mean(), fragmentation.peak(),
                    queue.mean(), w.preemptions(), w.migrations(), w.lostGpuSeconds(),
                    jct.count() == 0 ? 0 : (double) sloMet / jct.count(), wallMillis, cpuMillis, cdf, series);
        }
    }
}
