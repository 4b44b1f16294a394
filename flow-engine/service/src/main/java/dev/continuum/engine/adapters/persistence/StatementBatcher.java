package dev.continuum.engine.adapters.persistence;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.UniEmitter;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Many callers' rows in one statement, hence one round trip and (for a write) one transaction and WAL
 * flush. A request goes at once while fewer than {@link #MAX_IN_FLIGHT} statements of its kind are under
 * way, so an idle engine adds no delay; otherwise it waits for one of them to finish, at most
 * {@code maxWait} (2 ms in the engine), and goes with every request that queued meanwhile. Each caller hears its own
 * answer only once the whole statement is done, on the Vert.x context it asked from. Should a batch
 * fail, each of its requests is tried on its own, so one bad request fails alone.
 *
 * @param <T> a request
 * @param <R> its answer
 */
final class StatementBatcher<T, R> {

    private static final Logger LOG = Logger.getLogger(StatementBatcher.class);

    /**
     * Statements of one kind under way at once. One: whatever comes while it is under way goes with the next, so under
     * load the batches grow with the rate (one commit, one round trip for all) instead of several small statements
     * racing each other into PostgreSQL for the same two cores; an idle engine still sends each request at once.
     */
    static final int MAX_IN_FLIGHT = 1;
    /** The longest a request waits to be sent with others. */
    static final Duration MAX_WAIT = Duration.ofMillis(2);
    /** Requests in one statement; bounds its size and a failed batch's retries. */
    static final int MAX_BATCH = 256;

    /** A request waiting to be sent, with whom to tell and on which Vert.x context (null: none). */
    private record Waiting<T, R>(T request, UniEmitter<? super R> caller, Context context) {}

    private final String kind;
    private final Vertx vertx;
    private final Duration maxWait;
    private final Function<List<T>, Uni<List<R>>> many;
    private final Function<T, Uni<R>> one;
    private final List<Waiting<T, R>> queue = new ArrayList<>();
    private int inFlight;
    private boolean timerSet;

    /**
     * @param many answers a batch, one answer per request in the batch's order
     * @param one  answers a request sent alone (a batch of one, and each request of a failed batch)
     */
    StatementBatcher(String kind, Vertx vertx, Duration maxWait, Function<List<T>, Uni<List<R>>> many,
                     Function<T, Uni<R>> one) {
        this.kind = kind;
        this.vertx = vertx;
        this.maxWait = maxWait;
        this.many = many;
        this.one = one;
    }

    Uni<R> submit(T request) {
        return Uni.createFrom().emitter(caller -> enqueue(new Waiting<>(request, caller, Vertx.currentContext())));
    }

    private void enqueue(Waiting<T, R> waiting) {
        List<Waiting<T, R>> batch = null;
        boolean arm = false;
        synchronized (this) {
            queue.add(waiting);
            if (inFlight < MAX_IN_FLIGHT || queue.size() >= MAX_BATCH) {
                batch = take();
            } else if (!timerSet) {
                timerSet = arm = true;
            }
        }
        if (batch != null) {
            send(batch);
        } else if (arm) {
            vertx.setTimer(Math.max(1, maxWait.toMillis()), id -> {
                List<Waiting<T, R>> due;
                synchronized (this) {
                    timerSet = false;
                    due = queue.isEmpty() ? null : take();
                }
                if (due != null) {
                    send(due);
                }
            });
        }
    }

    /** Takes up to a batch off the queue and counts it as under way; the caller holds the lock. */
    private List<Waiting<T, R>> take() {
        List<Waiting<T, R>> batch = new ArrayList<>(queue.subList(0, Math.min(queue.size(), MAX_BATCH)));
        queue.subList(0, batch.size()).clear();
        inFlight++;
        return batch;
    }

    private void send(List<Waiting<T, R>> batch) {
        Uni<List<R>> answers = batch.size() == 1 ? one.apply(batch.getFirst().request()).map(List::of)
                : many.apply(batch.stream().map(Waiting::request).toList());
        answers.subscribe().with(results -> {
            finished();
            for (int i = 0; i < batch.size(); i++) {
                tell(batch.get(i), results.get(i), null);
            }
        }, failure -> {
            finished();
            if (batch.size() == 1) {
                tell(batch.getFirst(), null, failure);
                return;
            }
            LOG.warnf("a batch of %d %s failed (%s); sending each on its own", batch.size(), kind, failure.getMessage());
            batch.forEach(w -> one.apply(w.request()).subscribe().with(r -> tell(w, r, null), alone -> tell(w, null, alone)));
        });
    }

    /** A statement finished: the requests that queued meanwhile go now rather than when the timer fires. */
    private void finished() {
        List<Waiting<T, R>> next = null;
        synchronized (this) {
            inFlight--;
            if (!queue.isEmpty()) {
                next = take();
            }
        }
        if (next != null) {
            send(next);
        }
    }

    private static <T, R> void tell(Waiting<T, R> waiting, R answer, Throwable failure) {
        Runnable told = failure == null ? () -> waiting.caller().complete(answer) : () -> waiting.caller().fail(failure);
        if (waiting.context() == null) {
            told.run();
        } else {
            waiting.context().runOnContext(ignored -> told.run()); // the caller goes on where it began
        }
    }
}
