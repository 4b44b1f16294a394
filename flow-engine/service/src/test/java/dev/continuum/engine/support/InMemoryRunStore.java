package dev.continuum.engine.support;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.RunEventRecord;
import dev.continuum.engine.app.RunQuery;
import dev.continuum.engine.app.RunRecord;
import dev.continuum.engine.app.RunStore;
import dev.continuum.flow.run.LogEntry;
import dev.continuum.flow.run.RunState;
import io.smallrye.mutiny.Uni;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * {@link RunStore} in memory with PgRunStore's lease rules (claim only an expired or free lease; commit
 * only as the lease owner and from the state last committed), for unit tests of the driver.
 */
public final class InMemoryRunStore implements RunStore {

    private static final class Row {
        RunRecord run;
        Instant nextWakeAt;
        String leaseOwner;
        Instant leaseUntil;
        String listener;
        final List<RunEventRecord> log = new ArrayList<>();
        final List<InboxItem> inbox = new ArrayList<>();
    }

    private final Map<UUID, Row> rows = new LinkedHashMap<>();
    private final Map<String, Instant> incarnations = new LinkedHashMap<>();
    private long inboxIds;
    private long commits;
    private long claims;

    @Override
    public synchronized Uni<Void> insert(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner,
                                         Instant leaseUntil) {
        Row row = new Row();
        row.run = run;
        row.nextWakeAt = nextWakeAt;
        row.leaseOwner = leaseOwner;
        row.leaseUntil = leaseUntil;
        append(row, log);
        rows.put(run.id(), row);
        return Uni.createFrom().voidItem();
    }

    /** Knows no flows: every version counts as current. */
    @Override
    public Uni<Boolean> insertIfCurrent(RunRecord run, List<LogEntry> log, Instant nextWakeAt, String leaseOwner,
                                        Instant leaseUntil) {
        return insert(run, log, nextWakeAt, leaseOwner, leaseUntil).replaceWith(true);
    }

    @Override
    public synchronized Uni<Boolean> commit(UUID runId, String leaseOwner, Instant basedOn, RunState state, List<LogEntry> log,
                                            Instant nextWakeAt, Instant leaseUntil, Instant now, List<Long> consumedInbox,
                                            String listener) {
        Row row = rows.get(runId);
        boolean finished = state.status().finished();
        if (row == null || !leaseOwner.equals(row.leaseOwner) || !row.run.updatedAt().equals(basedOn)
                || (row.run.completedAt() != null && !finished)) {
            return Uni.createFrom().item(false);
        }
        commits++;
        row.inbox.removeIf(item -> consumedInbox.contains(item.id()));
        row.nextWakeAt = !finished && !row.inbox.isEmpty() ? now : nextWakeAt;
        row.leaseOwner = leaseUntil == null ? null : row.leaseOwner;
        row.leaseUntil = leaseUntil;
        row.listener = listener;
        RunRecord r = row.run;
        row.run = new RunRecord(r.id(), r.flowId(), r.flowVersion(), r.ownerId(), r.label(), r.tags(), state, r.createdAt(),
                now, finished ? Objects.requireNonNullElse(r.completedAt(), now) : r.completedAt(), r.runManagers(), r.runMonitors());
        append(row, log);
        return Uni.createFrom().item(true);
    }

    @Override
    public synchronized Uni<Boolean> reopen(UUID runId, Instant basedOn, RunState state, List<LogEntry> log, Instant nextWakeAt,
                                            Instant now) {
        Row row = rows.get(runId);
        if (row == null || row.run.state().status() != dev.continuum.flow.run.RunStatus.FAILED || !row.run.updatedAt().equals(basedOn)) {
            return Uni.createFrom().item(false);
        }
        RunRecord r = row.run;
        row.run = new RunRecord(r.id(), r.flowId(), r.flowVersion(), r.ownerId(), r.label(), r.tags(), state, r.createdAt(),
                now, state.status().finished() ? now : null, r.runManagers(), r.runMonitors());
        row.nextWakeAt = nextWakeAt;
        row.leaseOwner = null;
        row.leaseUntil = null;
        append(row, log);
        return Uni.createFrom().item(true);
    }

    @Override
    public synchronized Uni<Integer> heartbeat(String incarnation, Instant now, Instant aliveUntil) {
        incarnations.put(incarnation, aliveUntil);
        incarnations.entrySet().removeIf(e -> e.getValue().isBefore(now));
        int woken = 0;
        for (Row row : rows.values()) {
            if (row.listener != null && row.run.completedAt() == null && !incarnations.containsKey(row.listener)) {
                row.listener = null;
                row.nextWakeAt = now;
                woken++;
            }
        }
        return Uni.createFrom().item(woken);
    }

    /** The engine process committed as the run's finish listener, if any. */
    public synchronized Optional<String> listener(UUID runId) {
        return Optional.ofNullable(rows.get(runId).listener);
    }

    /** When the run is next due for a scan, if ever. */
    public synchronized Optional<Instant> nextWakeAt(UUID runId) {
        return Optional.ofNullable(rows.get(runId).nextWakeAt);
    }

    @Override
    public synchronized Uni<List<UUID>> claimDue(String owner, Instant now, Instant leaseUntil, int limit) {
        List<UUID> claimed = rows.values().stream()
                .filter(row -> row.nextWakeAt != null && !row.nextWakeAt.isAfter(now) && free(row, now))
                .sorted(Comparator.comparing(row -> row.nextWakeAt))
                .limit(limit)
                .peek(row -> lease(row, owner, leaseUntil))
                .map(row -> row.run.id())
                .toList();
        return Uni.createFrom().item(claimed);
    }

    @Override
    public synchronized Uni<Optional<Instant>> nextDue() {
        return Uni.createFrom().item(rows.values().stream().filter(row -> row.nextWakeAt != null)
                .map(row -> row.leaseUntil != null && row.leaseUntil.isAfter(row.nextWakeAt) ? row.leaseUntil : row.nextWakeAt)
                .min(Comparator.naturalOrder()));
    }

    @Override
    public synchronized Uni<Boolean> holdLease(UUID runId, String owner, Instant basedOn, Instant now, Instant leaseUntil) {
        Row row = rows.get(runId);
        if (row == null || !row.run.updatedAt().equals(basedOn)
                || !(row.leaseOwner == null || row.leaseOwner.equals(owner) || row.leaseUntil.isBefore(now))) {
            return Uni.createFrom().item(false);
        }
        lease(row, owner, leaseUntil);
        return Uni.createFrom().item(true);
    }

    @Override
    public synchronized Uni<Optional<RunRecord>> claim(UUID runId, String owner, Instant now, Instant leaseUntil) {
        claims++;
        Row row = rows.get(runId);
        if (row == null || !(row.leaseOwner == null || row.leaseOwner.equals(owner) || row.leaseUntil.isBefore(now))) {
            return Uni.createFrom().item(Optional.empty());
        }
        lease(row, owner, leaseUntil);
        return Uni.createFrom().item(Optional.of(row.run));
    }

    @Override
    public synchronized Uni<Optional<RunRecord>> find(UUID runId) {
        return Uni.createFrom().item(Optional.ofNullable(rows.get(runId)).map(row -> row.run));
    }

    @Override
    public synchronized Uni<dev.continuum.engine.app.Slice<RunRecord>> list(RunQuery query, dev.continuum.engine.app.Viewer viewer) {
        // the driver tests list nothing; every run, unfiltered and on one page, is enough here
        return Uni.createFrom().item(new dev.continuum.engine.app.Slice<>(rows.values().stream().map(row -> row.run).toList(), List.of()));
    }

    @Override
    public synchronized Uni<Boolean> update(UUID runId, String label, List<String> tags, List<String> runManagers,
                                            List<String> runMonitors) {
        Row row = rows.get(runId);
        if (row == null) {
            return Uni.createFrom().item(false);
        }
        RunRecord r = row.run;
        row.run = new RunRecord(r.id(), r.flowId(), r.flowVersion(), r.ownerId(), label, tags, r.state(), r.createdAt(),
                r.updatedAt(), r.completedAt(), runManagers, runMonitors);
        return Uni.createFrom().item(true);
    }

    @Override
    public synchronized Uni<List<RunEventRecord>> events(UUID runId, int afterSeq, int limit) {
        return Uni.createFrom().item(rows.get(runId).log.stream().filter(e -> e.seq() > afterSeq).limit(limit).toList());
    }

    @Override
    public synchronized Uni<List<RunEventRecord>> eventsBefore(UUID runId, int beforeSeq, int limit) {
        List<RunEventRecord> newestFirst = new java.util.ArrayList<>(rows.get(runId).log);
        java.util.Collections.reverse(newestFirst);
        return Uni.createFrom().item(newestFirst.stream().filter(e -> e.seq() < beforeSeq).limit(limit).toList());
    }

    @Override
    public synchronized Uni<List<InboxItem>> inbox(UUID runId) {
        return Uni.createFrom().item(List.copyOf(rows.get(runId).inbox));
    }

    /** Claims of single runs asked for (each a statement in PgRunStore), taken or not. */
    public synchronized long claims() {
        return claims;
    }

    /** Turns committed (each a transaction in PgRunStore). */
    public synchronized long commits() {
        return commits;
    }

    /** Completions ever queued in an inbox (pushed callbacks, cancels, resumes). */
    public synchronized long pushes() {
        return inboxIds;
    }

    @Override
    public synchronized Uni<Boolean> push(UUID runId, String token, JsonNode status, Instant now) {
        Row row = rows.get(runId);
        if (row == null || row.run.completedAt() != null) {
            return Uni.createFrom().item(false);
        }
        row.nextWakeAt = now;
        row.inbox.add(new InboxItem(++inboxIds, token, status));
        return Uni.createFrom().item(true);
    }

    @Override
    public synchronized Uni<Boolean> wake(UUID runId, Instant at) {
        Row row = rows.get(runId);
        if (row != null) {
            row.nextWakeAt = at;
        }
        return Uni.createFrom().item(row != null);
    }

    @Override
    public synchronized Uni<Boolean> delete(UUID runId) {
        Row row = rows.get(runId);
        boolean gone = row != null && row.run.completedAt() != null && rows.remove(runId) != null;
        return Uni.createFrom().item(gone);
    }

    @Override
    public synchronized Uni<Integer> purgeFinished(Instant cutoff, java.util.Optional<String> owner, int limit) {
        List<UUID> gone = rows.entrySet().stream()
                .filter(e -> e.getValue().run.completedAt() != null && e.getValue().run.completedAt().isBefore(cutoff))
                .filter(e -> owner.isEmpty() || owner.get().equals(e.getValue().run.ownerId()))
                .limit(limit).map(Map.Entry::getKey).toList();
        gone.forEach(rows::remove);
        return Uni.createFrom().item(gone.size());
    }

    @Override
    public synchronized Uni<Map<String, Long>> countByStatus() {
        Map<String, Long> counts = new LinkedHashMap<>();
        rows.values().forEach(row -> counts.merge(row.run.state().status().name(), 1L, Long::sum));
        return Uni.createFrom().item(counts);
    }

    @Override
    public synchronized Uni<dev.continuum.engine.app.DueBacklog> dueBacklog(Instant now) {
        List<Instant> due = rows.values().stream().filter(r -> r.nextWakeAt != null && !r.nextWakeAt.isAfter(now) && free(r, now))
                .map(r -> r.nextWakeAt).sorted().toList();
        return Uni.createFrom().item(new dev.continuum.engine.app.DueBacklog(due.size(),
                due.isEmpty() ? java.time.Duration.ZERO : java.time.Duration.between(due.get(0), now)));
    }

    private static boolean free(Row row, Instant now) {
        return row.leaseUntil == null || row.leaseUntil.isBefore(now);
    }

    private static void lease(Row row, String owner, Instant until) {
        row.leaseOwner = owner;
        row.leaseUntil = until;
    }

    private static void append(Row row, List<LogEntry> log) {
        for (LogEntry entry : log) {
            row.log.add(new RunEventRecord(row.log.size() + 1, entry.code(), entry.stateName(), entry.description(),
                    entry.details(), entry.time()));
        }
    }
}
