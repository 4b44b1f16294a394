package dev.continuum.placement.service.app;

import dev.continuum.placement.core.planner.Observation;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.PlacementRequest;
import dev.continuum.placement.core.planner.PlacementResult;
import dev.continuum.placement.core.planner.Planner;
import dev.continuum.placement.core.planner.Restored;
import dev.continuum.placement.service.app.DecisionRecord.Cause;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The planner online: feeds the pure {@link Planner} the live inventory, requests and completions, one at a time
 * (the planner is not thread-safe and its decisions must replay in order), and writes every decision to the log
 * before answering.
 */
public final class PlannerService {

    private final Planner planner;
    private final LiveInventory inventory;
    private final PlacementLog log;
    private final Clock clock;
    private final ReplacementPush push;
    private long plannedVersion = -1;
    /** Per site, the queue wait the last decision placing a job there predicted; read by the metrics at each scrape. */
    private final Map<String, Long> predictedQueueMillisBySite = new ConcurrentHashMap<>();

    public PlannerService(Planner planner, LiveInventory inventory, PlacementLog log, Clock clock) {
        this(planner, inventory, log, clock, ReplacementPush.NONE);
    }

    /** As above, telling the client a request names in {@code owner} each time its job is placed again. */
    public PlannerService(Planner planner, LiveInventory inventory, PlacementLog log, Clock clock, ReplacementPush push) {
        this.planner = planner;
        this.inventory = inventory;
        this.log = log;
        this.clock = clock;
        this.push = push;
    }

    /** The planner's latest arrival-rate forecasts (per model and site, and per model over all sites). */
    public synchronized List<dev.continuum.placement.core.forecast.Forecast> forecasts() {
        return planner.forecasts();
    }

    /** Decides for a new job whose re-placements nobody is pushed. */
    public List<DecisionRecord> place(PlacementRequest request, String runId) {
        return place(request, runId, null);
    }

    /**
     * Decides for a new job; the request's own decision comes first, then what it did to other jobs. {@code owner}
     * (or null) is the client told when the job is placed again.
     */
    public synchronized List<DecisionRecord> place(PlacementRequest request, String runId, String owner) {
        if (log.request(request.id()).isPresent()) {
            throw new DuplicateRequestException(request.id());
        }
        long now = clock.millis();
        List<DecisionRecord> out = new ArrayList<>(refresh(now));
        // the planner refuses an invalid request (InvalidRequestException) before anything is kept
        PlacementResult result = planner.place(request, now);
        log.addRequest(request, runId, owner, Instant.ofEpochMilli(now));
        List<PlacementDecision> ordered = new ArrayList<>();
        ordered.add(result.decision());
        ordered.addAll(result.others());
        List<DecisionRecord> mine = log.append(records(ordered, Cause.REQUEST, now));
        pushReplacements(mine.subList(1, mine.size())); // what this request did to others, e.g. moved one
        mine.addAll(out);
        return mine;
    }

    /** The inventory changed (a heartbeat, a gateway gone): jobs it strands are placed again and logged. */
    public synchronized List<DecisionRecord> inventoryChanged() {
        return refresh(clock.millis());
    }

    /** A job finished, its overhead not measured: the cost model learns its compute time. */
    public List<DecisionRecord> completed(String requestId, String site, String model, long computeMillis) {
        return completed(requestId, site, model, computeMillis, Observation.JobCompleted.NOT_MEASURED,
                Observation.JobCompleted.NOT_MEASURED);
    }

    /**
     * A job finished: the cost model learns its compute time and, each unless {@link
     * Observation.JobCompleted#NOT_MEASURED}, the site's overhead and its queue wait beyond the tasks ahead; freed
     * GPUs may start queued jobs.
     */
    public synchronized List<DecisionRecord> completed(String requestId, String site, String model, long computeMillis,
                                                       long overheadMillis, long queuedMillis) {
        long now = clock.millis();
        refresh(now);
        log.markFinished(requestId, Instant.ofEpochMilli(now));
        List<PlacementDecision> decided = planner.observe(
                new Observation.JobCompleted(requestId, site, model, computeMillis, now, overheadMillis,
                        queuedMillis));
        return pushReplacements(log.append(records(decided, Cause.COMPLETION, now)));
    }

    /**
     * At start: the jobs the log shows running or waiting go back into the planner where they were (running
     * training jobs on their nodes and GPUs, waiting ones in the queue in arrival order, inference jobs in flight on
     * their gateway), so new decisions account for them. Returns how many were taken back.
     */
    public synchronized int restore() {
        long now = clock.millis();
        refresh(now);
        List<Restored> jobs = log.unfinished();
        pushReplacements(log.append(records(planner.restore(jobs, now), Cause.RESTART, now)));
        return jobs.size();
    }

    /** Time passed: the policies take a round (a job deferred by green starts when its window opens). */
    public synchronized List<DecisionRecord> tick() {
        long now = clock.millis();
        List<DecisionRecord> out = new ArrayList<>(refresh(now));
        out.addAll(pushReplacements(log.append(records(planner.observe(new Observation.Tick(now)), Cause.TIME, now))));
        return out;
    }

    /**
     * A transfer between two endpoints moved data at this rate: the link model learns it (endpoints the inventory
     * cannot map to two different sites teach it nothing). Returns whether the planner could use it.
     */
    public synchronized boolean transferMeasured(String fromEndpoint, String toEndpoint, double bytesPerSecond) {
        long now = clock.millis();
        refresh(now);
        planner.observe(new Observation.TransferMeasured(fromEndpoint, toEndpoint, bytesPerSecond, now));
        java.util.Map<String, String> sites = inventory.snapshot().siteByEndpoint();
        String from = sites.get(fromEndpoint);
        return from != null && sites.get(toEndpoint) != null && !from.equals(sites.get(toEndpoint));
    }

    /**
     * Moving the input of job {@code requestId} to {@code site} took {@code transferMillis}: the link it came over
     * learns from it (called before the job's completion, while the planner still holds the job).
     */
    public synchronized void inputMoved(String requestId, String site, long transferMillis) {
        long now = clock.millis();
        refresh(now);
        planner.observe(new Observation.InputMoved(requestId, site, transferMillis, now));
    }

    /** The queue wait (ms) predicted by the last decision that placed a job at {@code site}; empty before one. */
    public OptionalLong lastPredictedQueueMillis(String site) {
        Long millis = predictedQueueMillisBySite.get(site);
        return millis == null ? OptionalLong.empty() : OptionalLong.of(millis);
    }

    private List<DecisionRecord> refresh(long now) {
        long version = inventory.version();
        if (version == plannedVersion) {
            return new ArrayList<>();
        }
        plannedVersion = version;
        List<PlacementDecision> decided = planner.update(inventory.snapshot(), now);
        return decided.isEmpty() ? new ArrayList<>() : pushReplacements(log.append(records(decided, Cause.INVENTORY, now)));
    }

    /**
     * Of the decisions just logged, each that places an inference job again — on another site than its last, or
     * nowhere after it had one — is pushed to the client its request names, if it names one. Returns {@code logged}.
     */
    private List<DecisionRecord> pushReplacements(List<DecisionRecord> logged) {
        for (DecisionRecord d : logged) {
            boolean placedOrNot = d.decision() instanceof PlacementDecision.Placed
                    || d.decision() instanceof PlacementDecision.Unplaceable;
            if (!placedOrNot || !"inference".equals(d.kind())) {
                continue;
            }
            String owner = log.request(d.requestId()).map(PlacementLog.StoredRequest::owner).orElse(null);
            if (owner == null) {
                continue;
            }
            List<DecisionRecord> all = log.decisionsOf(d.requestId());
            DecisionRecord before = all.stream().filter(x -> x.seq() < d.seq()).reduce((a, b) -> b).orElse(null);
            if (before != null && before.decision() instanceof PlacementDecision.Placed was
                    && !was.chosen().site().equals(d.site())) {
                push.replaced(owner, was.chosen().site(), d);
            }
        }
        return logged;
    }

    private List<DecisionRecord> records(List<PlacementDecision> decisions, Cause cause, long now) {
        List<DecisionRecord> out = new ArrayList<>();
        for (PlacementDecision d : decisions) {
            if (d instanceof PlacementDecision.Placed placed && placed.chosen().latency() != null) {
                predictedQueueMillisBySite.put(placed.chosen().site(), placed.chosen().latency().queueMillis());
            }
            out.add(new DecisionRecord(0, d.requestId(), null, null, Instant.ofEpochMilli(now), cause, d));
        }
        return out;
    }
}
