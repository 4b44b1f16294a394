package dev.continuum.placement.core.planner;

/**
 * What the planner has learnt from completed jobs and measured transfers: compute time per (model, device) and
 * per (model, GPU model), bandwidth per (site, site) on an idle link and behind other inputs, and overhead per
 * site. Each estimate starts at a prior and moves towards what is observed: a running mean while samples are few
 * (the prior counts as {@code priorWeight} samples), an EWMA with rate {@code minLearningRate} after, so it follows
 * a device that gets slower. Pure and deterministic.
 */
final class CostModel {
    /** A learnt value, how many samples it rests on (0 = the prior alone) and what they were taken on. */
    record Estimate(double value, int samples, String basis) {
        String inWords() {
            return samples == 0 ? "prior, never observed" : "learnt from " + Words.plural(samples, "run") + " on " + basis;
        }
    }

    private final PlannerConfig config;
    private final Estimate prior;
    private final PairMap<Estimate> computeByDevice = new PairMap<>();
    private final PairMap<Estimate> computeByGpuModel = new PairMap<>();
    /**
     * Per (site, site): seconds per byte, not bytes/s. What a prediction needs is the mean transfer time, and the
     * mean of measured rates overstates the rate whenever they vary (1 and 4 MB/s average 2.5 MB/s, while the two
     * transfers of 1 MB took 625 ms each on average, i.e. 1.6 MB/s): on the emulated continuum's loaded links that
     * made every moved input look a third faster than it was.
     */
    private final PairMap<Estimate> secondsPerByte = new PairMap<>();
    /**
     * Per (site, site), apart: inputs that were sent behind other inputs on the link. A link does not carry an input
     * in the same time whether it was idle or busy before: a shaped link (a token bucket) lets a burst through at
     * once after an idle spell, a connection in slow start is slower at first. On the emulated continuum's
     * 10 Mbit/s link an input took ~205 ms on an idle link and ~245 ms behind another, so one estimate for both
     * over-predicted every lone input by ~10 % and under-predicted a backlog by ~15 ms per input ahead.
     */
    private final PairMap<Estimate> secondsPerByteBehindOthers = new PairMap<>();
    /**
     * Per site, and whether the job's input was moved there ("moved") or already there ("local"), and at an edge site
     * whether the job found tasks ahead of it there ("moved, ahead", "local, ahead").
     */
    private final PairMap<Estimate> overhead = new PairMap<>();
    private static final Estimate NO_OVERHEAD = new Estimate(0, 0, "none measured");
    /**
     * Per site, and whether the job found tasks ahead of it there ("ahead") or none ("none"): how much longer its
     * tasks waited for a worker than the queue term predicted (may be negative).
     */
    private final PairMap<Estimate> queueBeyond = new PairMap<>();

    CostModel(PlannerConfig config) {
        this.config = config;
        this.prior = new Estimate(config.priorComputeMillis(), 0, "prior");
    }

    /** Compute time of the model on the device: its own history, else its GPU model's, else the prior. */
    Estimate compute(String model, String device, String gpuModel) {
        Estimate own = computeByDevice.get(model, device);
        return own != null ? own : computeOnGpuModel(model, gpuModel);
    }

    /** How many runs of the model the device's own compute estimate rests on (0: its GPU model's or the prior). */
    int computeRunsOn(String model, String device) {
        Estimate own = computeByDevice.get(model, device);
        return own == null ? 0 : own.samples();
    }

    private Estimate computeOnGpuModel(String model, String gpuModel) {
        Estimate e = computeByGpuModel.get(model, gpuModel);
        return e != null ? e : prior;
    }

    void observeCompute(String model, String device, String gpuModel, double millis) {
        // a device's first runs blend with what its GPU model predicts, not with the global prior
        Estimate own = computeByDevice.get(model, device);
        Estimate deviceBefore = own != null ? own : new Estimate(computeOnGpuModel(model, gpuModel).value(), 0, device);
        computeByGpuModel.put(model, gpuModel, learn(computeOnGpuModel(model, gpuModel), millis,
                gpuModel + " GPUs"));
        computeByDevice.put(model, device, learn(deviceBefore, millis, device));
    }

    /**
     * What a job takes at {@code site} beyond moving its input, the queue and the compute: sending the task and its
     * result back (the broker's hops, an inline input crossing the site's own link), decoding, spooling — learnt
     * apart for jobs whose input was moved there and jobs whose input was already there, as the two differ by the
     * input riding inside the task. While one case has no sample the site's other case stands in, so a site
     * measured only one way does not look free the other way; 0 only for a site never measured.
     */
    Estimate overhead(String site, boolean inputMoved) {
        return ownCaseElseOther(overhead, site, overheadCase(inputMoved), overheadCase(!inputMoved));
    }

    /**
     * The overhead of a job that found tasks ahead of it at a site where that is learnt apart ({@code behindTasks};
     * the caller says where: an edge gateway). At a gateway capped to a tenth of a CPU the overhead is CPU work —
     * decoding, spooling, answering — done beside the worker on the same tenth, so a job behind other tasks takes
     * longer to get through it than one arriving at an idle gateway (on the emulated continuum gw-slow's local jobs
     * with none ahead had a median latency of 125–140 ms, behind one or two 180–460 ms, while one estimate predicted
     * ~200 ms to each); a pool with cores to spare shows no such difference, and learning it apart there only made
     * its estimates noisier. While no job behind others was measured, the site's estimate for its case stands in.
     */
    Estimate overhead(String site, boolean inputMoved, boolean behindTasks) {
        Estimate apart = behindTasks ? overhead.get(site, overheadCase(inputMoved) + AHEAD) : null;
        return apart != null ? apart : overhead(site, inputMoved);
    }

    private static final String AHEAD = ", ahead";

    /** A site's estimate for its case, the site's other case standing in while unmeasured, else none. */
    private static Estimate ownCaseElseOther(PairMap<Estimate> map, String site, String own, String other) {
        Estimate e = map.get(site, own);
        if (e == null) {
            e = map.get(site, other);
        }
        return e != null ? e : NO_OVERHEAD;
    }

    private static String overheadCase(boolean inputMoved) {
        return inputMoved ? "moved" : "local";
    }

    void observeOverhead(String site, boolean inputMoved, double millis) {
        observeOverhead(site, inputMoved, false, millis);
    }

    /** An overhead measured; {@code behindTasks}: for a job that found tasks ahead where that is learnt apart. */
    void observeOverhead(String site, boolean inputMoved, boolean behindTasks, double millis) {
        String key = overheadCase(inputMoved) + (behindTasks ? AHEAD : "");
        String basis = site + (inputMoved ? " with the input moved there" : " with the input already there")
                + (behindTasks ? ", behind other tasks" : "");
        Estimate before = overhead.get(site, key);
        // no prior: the first sample is the estimate, then the running mean, then the EWMA
        overhead.put(site, key, before == null ? new Estimate(millis, 1, basis) : learnFromSamples(before, millis, basis));
    }

    /**
     * How much longer than predicted tasks at {@code site} wait for a worker: a worker that is free still takes a
     * while to pick a task up (a CPU-capped gateway's worker waits for its next time slice; a spool is polled), and
     * a site whose heartbeat under-counts its queue waits longer than its tasks ahead say. Learnt from each
     * completion's measured wait less the wait predicted when the job was placed — apart for jobs that found tasks
     * ahead of them ({@code tasksAhead}) and jobs that found none: at a gateway capped to a tenth of a CPU the tasks
     * ahead decode, spool and answer on the worker's CPU, so a job behind them waits for that work as well as for
     * their runs (on the emulated continuum 0–20 ms beyond the model with none ahead, 50–370 ms with one or two),
     * while a pool with cores to spare learns about 0 either way. One estimate for both predicted the mean to every
     * job there: too long with none ahead, too short behind others. While one case has no sample the other stands
     * in; 0 for a site never measured.
     */
    Estimate queueBeyond(String site, boolean tasksAhead) {
        return ownCaseElseOther(queueBeyond, site, queueCase(tasksAhead), queueCase(!tasksAhead));
    }

    private static String queueCase(boolean tasksAhead) {
        return tasksAhead ? "ahead" : "none";
    }

    void observeQueue(String site, boolean tasksAhead, double measuredMillis, double predictedMillis) {
        String key = queueCase(tasksAhead);
        Estimate before = queueBeyond.get(site, key);
        double residual = measuredMillis - predictedMillis;
        String basis = tasksAhead ? site + " behind other tasks" : site;
        queueBeyond.put(site, key, before == null ? new Estimate(residual, 1, basis)
                : learnFromSamples(before, residual, basis));
    }

    private Estimate learnFromSamples(Estimate before, double sample, String basis) {
        int n = before.samples() + 1;
        double rate = Math.max(config.minLearningRate(), 1.0 / n);
        return new Estimate(before.value() + rate * (sample - before.value()), n, basis);
    }

    /**
     * Learnt bytes/s from one site to another (either direction) for an input sent on an idle link, or behind other
     * inputs ({@code behindOthers}) — the idle link's estimate standing in until such an input was measured — or
     * null when nothing was measured.
     */
    Estimate bandwidth(String fromSite, String toSite, boolean behindOthers) {
        Estimate e = behindOthers ? secondsPerByte(secondsPerByteBehindOthers, fromSite, toSite) : null;
        if (e == null) {
            e = secondsPerByte(secondsPerByte, fromSite, toSite);
        }
        return e == null ? null : new Estimate(1 / e.value(), e.samples(), e.basis());
    }

    private static Estimate secondsPerByte(PairMap<Estimate> map, String fromSite, String toSite) {
        Estimate e = map.get(fromSite, toSite);
        return e != null ? e : map.get(toSite, fromSite);
    }

    /**
     * A transfer on an idle link (one the planner did not send, e.g. a transfer provider's report);
     * {@code configuredBytesPerSecond} (0 = no configured link) is the prior of a link measured the first time.
     */
    void observeBandwidth(String fromSite, String toSite, double bytesPerSecond, double configuredBytesPerSecond) {
        observeBandwidth(fromSite, toSite, bytesPerSecond, configuredBytesPerSecond, false);
    }

    /**
     * A transfer measured on an idle link, or behind other inputs ({@code behindOthers}); the first of the latter
     * starts from what the idle link measured, else from the configured link.
     */
    void observeBandwidth(String fromSite, String toSite, double bytesPerSecond, double configuredBytesPerSecond,
                          boolean behindOthers) {
        if (!(bytesPerSecond > 0) || Double.isInfinite(bytesPerSecond)) {
            return; // no time per byte to learn from
        }
        PairMap<Estimate> map = behindOthers ? secondsPerByteBehindOthers : secondsPerByte;
        String basis = behindOthers ? "measured behind other inputs" : "measured";
        Estimate before = secondsPerByte(map, fromSite, toSite);
        if (before == null && behindOthers) {
            Estimate idle = secondsPerByte(secondsPerByte, fromSite, toSite);
            before = idle == null ? null : new Estimate(idle.value(), 0, basis);
        }
        if (before == null) {
            before = configuredBytesPerSecond > 0 ? new Estimate(1 / configuredBytesPerSecond, 0, "configured") : null;
        }
        map.put(fromSite, toSite, before == null ? new Estimate(1 / bytesPerSecond, 1, basis)
                : learn(before, 1 / bytesPerSecond, basis));
    }

    private Estimate learn(Estimate before, double sample, String basis) {
        int n = before.samples() + 1;
        double rate = Math.max(config.minLearningRate(), 1.0 / (n + config.priorWeight()));
        return new Estimate(before.value() + rate * (sample - before.value()), n, basis);
    }
}
