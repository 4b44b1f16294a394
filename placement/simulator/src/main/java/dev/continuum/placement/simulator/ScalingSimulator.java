package dev.continuum.placement.simulator;

import dev.continuum.placement.core.forecast.ArrivalForecaster;
import dev.continuum.placement.core.forecast.Forecast;
import dev.continuum.placement.core.forecast.ForecastConfig;
import dev.continuum.placement.core.forecast.SeriesKey;
import dev.continuum.placement.core.scaling.PoolSnapshot;
import dev.continuum.placement.core.scaling.ScalingConfig;
import dev.continuum.placement.core.scaling.ScalingDecision;
import dev.continuum.placement.core.scaling.ScalingPolicy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One model's inference pool driven by an arrival trace: identical workers serve requests one at a time, first come
 * first served, each taking its request's service time; a worker added after the start serves only after the cold
 * start; a removed worker finishes the request it is serving. The policy ticks every {@link
 * ScalingPolicy#intervalMillis()} and sees what {@link PoolSnapshot} holds, with forecasts from the same {@link
 * ArrivalForecaster} the planner runs. The pool starts with {@code initialWorkers} warm (as if it had been running
 * before the trace began) and the policy first decides one interval in. Deterministic: no
 * clock, no randomness, ties broken by worker number.
 */
public final class ScalingSimulator {
    private static final String MODEL = "pool";
    private static final int SERVICE_WINDOW = 200;

    /** A request arriving at {@code atMillis} that takes {@code serviceMillis} of one worker. */
    public record Request(long atMillis, long serviceMillis) {
    }

    /** One tick: the rate just seen, the forecast for this bucket (NaN before the first), workers, ready ones. */
    public record Sample(long atMillis, double rate, double forecast, double lower, double upper, int workers,
                         int ready, double capacityRate) {
    }

    /** What a policy achieved on a trace. Worker-seconds count starting and draining workers: they hold a GPU. */
    public record Result(String policy, int requests, double sloAttainment, double p95Seconds, double p99Seconds,
                         double workerSeconds, int coldStarts, int scalingActions, int peakWorkers,
                         List<ScalingDecision> decisions, List<Sample> timeline) {
    }

    private static final class Worker {
        final int id;
        final long startedAt;
        final long readyAt;
        long stoppedAt = -1;
        long servingSince = -1;
        boolean draining;

        Worker(int id, long startedAt, long readyAt) {
            this.id = id;
            this.startedAt = startedAt;
            this.readyAt = readyAt;
        }
    }

    private final List<Request> requests;
    private final ScalingPolicy policy;
    private final ScalingConfig config;
    private final ArrivalForecaster forecaster;
    private final List<Worker> workers = new ArrayList<>();
    private final ArrayDeque<Worker> idle = new ArrayDeque<>();
    private final ArrayDeque<Request> queue = new ArrayDeque<>();
    /** {time, 0 ready | 1 done, worker id}: readiness before completions at the same millisecond. */
    private final PriorityQueue<long[]> events = new PriorityQueue<>(
            Comparator.<long[]>comparingLong(e -> e[0]).thenComparingLong(e -> e[1]).thenComparingLong(e -> e[2]));
    private final long[] recentService = new long[SERVICE_WINDOW];
    private final double priorServiceSeconds;
    private final int initialWorkers;
    private int served;
    private int serving;
    private double lastRate;
    private final double[] latency;
    private int withinSlo;
    private long windowStart;
    private double busyMillis;
    private double readyMillis;
    private int arrivedInWindow;
    private int coldStarts;
    private int peak;

    private ScalingSimulator(List<Request> requests, ScalingPolicy policy, ScalingConfig config,
                             ForecastConfig forecast, double priorServiceSeconds, int initialWorkers) {
        this.initialWorkers = initialWorkers;
        this.requests = requests;
        this.policy = policy;
        this.config = config;
        this.forecaster = new ArrivalForecaster(forecast);
        this.priorServiceSeconds = priorServiceSeconds;
        this.latency = new double[requests.size()];
    }

    /**
     * Replays {@code requests} (in arrival order) under {@code policy}; {@code priorServiceSeconds} is the mean
     * service time the policies assume until requests have completed.
     */
    public static Result run(List<Request> requests, ScalingPolicy policy, ScalingConfig config,
                             ForecastConfig forecast, double priorServiceSeconds, int initialWorkers) {
        return new ScalingSimulator(requests, policy, config, forecast, priorServiceSeconds, initialWorkers).run();
    }

    private Result run() {
        List<ScalingDecision> decisions = new ArrayList<>();
        List<Sample> timeline = new ArrayList<>();
        long origin = requests.isEmpty() ? 0 : requests.getFirst().atMillis();
        long nextTick = origin;
        windowStart = origin;
        int next = 0;
        long now = origin;
        boolean first = true;
        while (next < requests.size() || !queue.isEmpty() || busy()) {
            long arrival = next < requests.size() ? requests.get(next).atMillis() : Long.MAX_VALUE;
            long event = events.isEmpty() ? Long.MAX_VALUE : events.peek()[0];
            now = Math.min(nextTick, Math.min(arrival, event));
            if (event == now) {
                long[] e = events.poll();
                Worker w = workers.get((int) e[2]);
                if (e[1] == 1) {
                    complete(w, now);
                }
                freed(w, now);
            } else if (arrival == now) {
                Request r = requests.get(next++);
                forecaster.arrival(MODEL, null, now);
                arrivedInWindow++;
                queue.addLast(r);
            } else if (first) {
                resize(initialWorkers, now, true);
                first = false;
                timeline.add(sample(now));
                nextTick += policy.intervalMillis();
            } else {
                decisions.add(tick(now));
                timeline.add(sample(now));
                nextTick += policy.intervalMillis();
            }
            dispatch(now);
        }
        long end = now;
        double workerMillis = 0;
        for (Worker w : workers) {
            workerMillis += (w.stoppedAt < 0 ? end : w.stoppedAt) - w.startedAt;
        }
        double[] sorted = Arrays.copyOf(latency, served);
        Arrays.sort(sorted);
        int actions = (int) decisions.stream().filter(ScalingDecision::changes).count();
        return new Result(policy.name(), served, served == 0 ? 1 : (double) withinSlo / served,
                quantile(sorted, 0.95), quantile(sorted, 0.99), workerMillis / 1000, coldStarts, actions, peak,
                decisions, timeline);
    }

    private ScalingDecision tick(long now) {
        forecaster.advanceTo(now);
        double seconds = Math.max(1, now - windowStart) / 1000.0;
        for (Worker w : workers) {
            if (w.stoppedAt < 0 && w.readyAt < now) {
                readyMillis += now - Math.max(w.readyAt, windowStart);
            }
            if (w.servingSince >= 0) {
                busyMillis += now - Math.max(w.servingSince, windowStart);
            }
        }
        double utilisation = readyMillis == 0 ? 0 : busyMillis / readyMillis;
        PoolSnapshot snapshot = new PoolSnapshot(now, live(), ready(now), Math.min(1, utilisation), queue.size(),
                arrivedInWindow / seconds, meanServiceSeconds(),
                forecaster.forecasts().stream().filter(f -> f.series().equals(SeriesKey.allSites(MODEL))).toList());
        lastRate = snapshot.recentRate();
        ScalingDecision d = policy.decide(snapshot);
        resize(d.to(), now, false);
        windowStart = now;
        busyMillis = 0;
        readyMillis = 0;
        arrivedInWindow = 0;
        return d;
    }

    private Sample sample(long now) {
        Forecast f = forecaster.forecasts().stream()
                .filter(x -> x.series().equals(SeriesKey.allSites(MODEL)) && x.horizonBuckets() == 1)
                .findFirst().orElse(null);
        int ready = ready(now);
        return new Sample(now, lastRate, f == null ? Double.NaN : f.rate(), f == null ? Double.NaN : f.lower(),
                f == null ? Double.NaN : f.upper(), live(), ready, ready / meanServiceSeconds());
    }

    private void resize(int to, long now, boolean first) {
        int live = live();
        for (int i = live; i < to; i++) {
            Worker w = new Worker(workers.size(), now, first ? now : now + config.coldStartMillis());
            workers.add(w);
            if (!first) {
                coldStarts++;
            }
            events.add(new long[] {w.readyAt, 0, w.id});
        }
        peak = Math.max(peak, to);
        int excess = live - to;
        // the cheapest to give up first: workers still starting (newest first), then idle ones, then busy ones
        for (int i = workers.size() - 1; i >= 0 && excess > 0; i--) {
            Worker w = workers.get(i);
            if (w.stoppedAt < 0 && !w.draining && w.readyAt > now) {
                stop(w, now);
                excess--;
            }
        }
        while (excess > 0 && !idle.isEmpty()) {
            stop(idle.pollLast(), now);
            excess--;
        }
        for (int i = workers.size() - 1; i >= 0 && excess > 0; i--) {
            Worker w = workers.get(i);
            if (w.stoppedAt < 0 && !w.draining && w.servingSince >= 0) {
                w.draining = true;
                excess--;
            }
        }
    }

    private void stop(Worker w, long now) {
        if (w.readyAt < now) {
            readyMillis += now - Math.max(w.readyAt, windowStart);
        }
        w.stoppedAt = now;
        idle.remove(w);
    }

    private void complete(Worker w, long now) {
        busyMillis += now - Math.max(w.servingSince, windowStart);
        w.servingSince = -1;
        serving--;
    }

    private void freed(Worker w, long now) {
        if (w.stoppedAt >= 0) {
            return; // a cancelled cold start
        }
        if (w.draining) {
            stop(w, now);
        } else {
            idle.addLast(w);
        }
    }

    private void dispatch(long now) {
        while (!queue.isEmpty() && !idle.isEmpty()) {
            Request r = queue.pollFirst();
            Worker w = idle.pollFirst();
            w.servingSince = now;
            serving++;
            long wait = now - r.atMillis();
            latency[served] = (wait + r.serviceMillis()) / 1000.0;
            if (wait <= config.sloMillis()) {
                withinSlo++;
            }
            recentService[served % SERVICE_WINDOW] = r.serviceMillis();
            served++;
            events.add(new long[] {now + r.serviceMillis(), 1, w.id});
        }
    }

    private double meanServiceSeconds() {
        if (served == 0) {
            return priorServiceSeconds;
        }
        int n = Math.min(served, SERVICE_WINDOW);
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += recentService[i];
        }
        return Math.max(0.001, sum / 1000.0 / n);
    }

    private boolean busy() {
        return serving > 0;
    }

    private int live() {
        return (int) workers.stream().filter(w -> w.stoppedAt < 0 && !w.draining).count();
    }

    private int ready(long now) {
        return (int) workers.stream().filter(w -> w.stoppedAt < 0 && !w.draining && w.readyAt <= now).count();
    }

    private static double quantile(double[] sorted, double q) {
        return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1)];
    }
}
