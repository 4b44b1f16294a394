package dev.continuum.placement.core.policy;

import dev.continuum.placement.core.model.Job;
import dev.continuum.placement.core.state.ActiveJob;
import dev.continuum.placement.core.state.ClusterView;
import dev.continuum.placement.core.state.Decision;
import dev.continuum.placement.core.state.Placement;
import dev.continuum.placement.core.state.QuotaStatus;
import dev.continuum.placement.core.state.SchedulingContext;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code +green}: a job that can wait — it has a deadline, a run-time estimate and slack between them — is held back
 * until the start within its deadline whose run has the lowest mean carbon intensity (or energy price) at this
 * site, when that is at least {@link #MIN_SAVING} lower than starting now. Everything else is the wrapped policy's;
 * held jobs are hidden from its rounds until their window opens, and {@link #wakeUpAt} asks for a round then.
 */
public final class GreenPolicy implements Policy {
    /** A smaller saving is not worth the delay. */
    public static final double MIN_SAVING = 0.05;

    /** A job held until {@code untilSeconds}: its run's mean signal then, and if it started at arrival. */
    public record Hold(double untilSeconds, double meanThen, double meanNow) {}

    private final Policy inner;
    private final CarbonSignal signal;
    private final String site;
    private final Map<String, Hold> holds = new HashMap<>();

    public GreenPolicy(Policy inner, CarbonSignal signal, String site) {
        this.inner = inner;
        this.signal = signal;
        this.site = site;
    }

    @Override public String name() { return inner.name(); }
    @Override public JobOrder order() { return inner.order(); }
    @Override public boolean lending() { return inner.lending(); }

    @Override
    public double nextReconsideration(ActiveJob running, double now) {
        return inner.nextReconsideration(running, now);
    }

    @Override
    public void onArrival(Job job) {
        inner.onArrival(job);
        if (!signal.covers(site) || job.deadline() <= 0 || job.duration() <= 0 || job.deadline() <= job.duration()) {
            return;
        }
        double arrival = job.arrival();
        double latest = arrival + job.deadline() - job.duration();
        double start = signal.bestStart(site, arrival, latest, job.duration());
        double now = signal.average(site, arrival, arrival + job.duration());
        double then = signal.average(site, start, start + job.duration());
        if (start > arrival && then <= now * (1 - MIN_SAVING)) {
            holds.put(job.id(), new Hold(start, then, now));
        }
    }

    @Override
    public void onCompletion(ActiveJob job, double now) {
        holds.remove(job.job().id());
        inner.onCompletion(job, now);
    }

    /** Why a job waits although it could run: its green window, if it is held. */
    public Optional<Hold> holdOf(String jobId) {
        return Optional.ofNullable(holds.get(jobId));
    }

    @Override
    public void schedule(SchedulingContext ctx) {
        holds.values().removeIf(h -> h.untilSeconds() <= ctx.now());
        inner.schedule(holds.isEmpty() ? ctx : new Holding(ctx));
    }

    @Override
    public double wakeUpAt(double now) {
        double wake = inner.wakeUpAt(now);
        for (Hold h : holds.values()) {
            if (h.untilSeconds() > now) {
                wake = Math.min(wake, h.untilSeconds());
            }
        }
        return wake;
    }

    /** The round's context without the held jobs in the queue. */
    private final class Holding implements SchedulingContext {
        private final SchedulingContext ctx;

        Holding(SchedulingContext ctx) {
            this.ctx = ctx;
        }

        private List<ActiveJob> visible(List<ActiveJob> jobs, int limit) {
            List<ActiveJob> out = new ArrayList<>();
            for (ActiveJob a : jobs) {
                if (out.size() >= limit) {
                    break;
                }
                if (!holds.containsKey(a.job().id())) {
                    out.add(a);
                }
            }
            return out;
        }

        @Override public double now() { return ctx.now(); }
        @Override public ClusterView cluster() { return ctx.cluster(); }
        @Override public List<ActiveJob> waiting(int limit) {
            return visible(ctx.waiting(limit >= Integer.MAX_VALUE - holds.size() ? Integer.MAX_VALUE : limit + holds.size()), limit);
        }
        @Override public List<ActiveJob> waitingAfter(ActiveJob last, int limit) {
            return visible(ctx.waitingAfter(last, limit >= Integer.MAX_VALUE - holds.size() ? Integer.MAX_VALUE : limit + holds.size()), limit);
        }
        @Override public int waitingCount() { return Math.max(0, ctx.waitingCount() - holds.size()); }
        @Override public Collection<ActiveJob> running() { return ctx.running(); }
        @Override public QuotaStatus quota(Job job, int gpus) { return ctx.quota(job, gpus); }
        @Override public void start(ActiveJob job, Placement placement, double cpuSpeed) { ctx.start(job, placement, cpuSpeed); }
        @Override public void preempt(ActiveJob job, Decision.Reason reason) { ctx.preempt(job, reason); }
        @Override public void migrate(ActiveJob job, Placement to) { ctx.migrate(job, to); }
        @Override public void resize(ActiveJob job, Placement to) { ctx.resize(job, to); }
        @Override public List<Decision> decisions() { return ctx.decisions(); }
    }
}
