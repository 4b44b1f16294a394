package dev.continuum.provider.training.planner;

import dev.continuum.placement.api.PlacementBody;
import dev.continuum.placement.api.ReportedDecision;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.planner.trace.TraceCodec;
import dev.continuum.provider.training.core.DecisionListener;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends every decision of the provider's in-process planner to the planner service's decision log ({@code POST
 * /placements/{id}/decisions}, docs/training.md), so the log and the web UI's devices page show the training jobs.
 * {@link #decided} only queues (the scheduler never waits for the network); one thread of its own sends in order. A
 * planner that is down or refuses the token is logged once at WARNING and tried again every {@code retry}, the
 * decisions waiting in a backlog of at most {@code backlog} (beyond it the oldest are dropped and counted); a report
 * the planner refuses as invalid is dropped with a WARNING, since sending it again cannot help.
 */
public final class DecisionReporter implements DecisionListener, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(DecisionReporter.class.getName());

    private record Pending(String jobId, ReportedDecision report) {}

    private final PlannerClient planner;
    private final Duration retry;
    private final LinkedBlockingDeque<Pending> backlog;
    /** The run each job belongs to, when the provider was told (the engine's request id names it). */
    private final Map<String, String> runs = new ConcurrentHashMap<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread sender;
    private volatile boolean failing;
    /** The decision being sent (tried again while the planner is away); null between sends. */
    private volatile Pending sending;

    public DecisionReporter(PlannerClient planner, int backlog, Duration retry) {
        this.planner = planner;
        this.retry = retry;
        this.backlog = new LinkedBlockingDeque<>(backlog);
        this.sender = Thread.ofPlatform().daemon().name("training-decision-reporter").start(this::sendForever);
    }

    /** Job {@code jobId} belongs to run {@code runId}: its decisions are filed under the run too. */
    public void runOf(String jobId, String runId) {
        if (runId != null && !runId.isBlank()) {
            runs.put(jobId, runId);
        }
    }

    @Override
    public void decided(PlacementDecision decision, Instant at) {
        Pending p = new Pending(decision.requestId(), new ReportedDecision(PlacementBody.TRAINING,
                runs.get(decision.requestId()), at, TraceCodec.decisionTree(decision)));
        while (!backlog.offerLast(p)) {
            if (backlog.pollFirst() != null && dropped.incrementAndGet() == 1) {
                LOG.log(Level.WARNING, "the planner's decision backlog is full ({0} waiting): dropping the oldest "
                        + "training decisions, the planner's log will miss them", backlog.size());
            }
        }
    }

    /** Decisions the planner accepted so far. */
    public long sent() {
        return sent.get();
    }

    /** Decisions waiting to be sent, the one being tried included. */
    public int waiting() {
        return backlog.size() + (sending == null ? 0 : 1);
    }

    /** Decisions dropped: the backlog was full, or the planner refused them as invalid. */
    public long dropped() {
        return dropped.get();
    }

    private void sendForever() {
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Pending p = backlog.takeFirst();
                sending = p;
                while (!send(p)) {
                    Thread.sleep(retry);
                }
                sending = null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closed
        }
    }

    /** True when done with {@code p} (accepted, or refused for good); false to try it again later. */
    private boolean send(Pending p) {
        try {
            planner.reportDecision(p.jobId(), p.report());
            sent.incrementAndGet();
            if (failing) {
                failing = false;
                LOG.log(Level.INFO, "the planner at {0} takes training decisions again ({1} waiting)", planner.base(),
                        backlog.size());
            }
            return true;
        } catch (PlannerClient.PlannerException e) {
            int status = e.status();
            boolean later = status == 0 || status >= 500 || status == 401 || status == 403 || status == 429;
            if (!later) {
                dropped.incrementAndGet();
                LOG.log(Level.WARNING, "the planner refused training decision about {0}: {1}", p.jobId(), e.getMessage());
                return true;
            }
            outage(e.getMessage());
        } catch (RuntimeException e) {
            outage("no token for the planner: " + e.getMessage()); // the identity provider refused or is away
        }
        return false;
    }

    private void outage(String why) {
        if (!failing) {
            failing = true;
            LOG.log(Level.WARNING, "cannot report training decisions to the planner ({0}); they wait ({1} now) and are "
                    + "tried again every {2} ms until it answers", why, waiting(), retry.toMillis());
        }
    }

    /** Stops sending: what still waits is not sent (the counts stay readable). */
    @Override
    public void close() {
        sender.interrupt();
    }
}
