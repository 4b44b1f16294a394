package dev.continuum.provider.training.core;

import dev.continuum.placement.planner.PlacementDecision;
import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.TrainingBackend;
import dev.continuum.provider.training.backend.TrainingJobSpec;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs training jobs on one backend as the planner decides: a new job is placed (or queued), a
 * {@code Preempted} decision checkpoints and stops a run, a {@code Moved} one checkpoints it and
 * starts the next attempt at the new placement (other GPUs count = resize), a completion frees
 * GPUs for what waits. {@link #poll} follows the backend's runs; everything is on the caller's
 * thread under this object's lock. Backend outages leave jobs as they are with a message; the
 * next poll tries again.
 */
public final class TrainingScheduler {
    private final TrainingBackend backend;
    private final BackendInventory inventory;
    private final PlannerBridge planner;
    private final Clock clock;
    private final JobListener listener;
    private final Path workRoot;
    private final Map<String, TrainingJob> jobs = new LinkedHashMap<>();
    /** Why a job's current run was asked to checkpoint and stop, until it has. */
    private final Map<String, StopCause> stopping = new LinkedHashMap<>();

    private enum StopCause { PLANNER_PREEMPT, OPERATOR_PREEMPT, MOVE }

    public TrainingScheduler(TrainingBackend backend, String policy, Clock clock, JobListener listener, Path workRoot)
            throws BackendException {
        this.backend = backend;
        this.inventory = backend.inventory();
        this.planner = new PlannerBridge(inventory, policy, clock.millis());
        this.clock = clock;
        this.listener = listener;
        this.workRoot = workRoot;
    }

    public BackendInventory inventory() {
        return inventory;
    }

    public synchronized Optional<TrainingJob> job(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** A new job, or one found in the store after a restart (then its last run is followed first). */
    public synchronized void admit(TrainingJob job) {
        jobs.put(job.id(), job);
        if (job.handle().isPresent() && !job.state().finished()) {
            pollOne(job.id());
            job = jobs.get(job.id());
            if (job == null || job.state().finished()) {
                return;
            }
        }
        int gpus = job.placement().map(Placement::gpus).orElse(job.request().preferredGpus());
        apply(planner.place(partitionOf(job), job, gpus, clock.millis()));
    }

    /** Follows every unfinished job's run and lets the planner take a round. */
    public synchronized void poll() {
        for (String id : new ArrayList<>(jobs.keySet())) {
            pollOne(id);
        }
        apply(planner.tick(clock.millis()));
    }

    /** Operator: checkpoint, stop and requeue the job. */
    public synchronized void preempt(String id, String reason) {
        TrainingJob job = jobs.get(id);
        requestStop(job, JobState.CHECKPOINTING, Move.Kind.PREEMPTED, reason, StopCause.OPERATOR_PREEMPT);
    }

    /** Operator: run the job on {@code gpus} GPUs from its next checkpoint on. */
    public synchronized void resize(String id, int gpus, String reason) {
        TrainingJob job = jobs.get(id);
        relocate(job.withRequest(job.request().withGpus(gpus, gpus)), partitionOf(job), gpus, Move.Kind.RESIZED, reason);
    }

    /**
     * Operator: move the job to {@code partition} from its next checkpoint on, with the GPUs it has. When that
     * partition has no room now, the job checkpoints, stops and waits there (state preempted) for the planner.
     */
    public synchronized void migrate(String id, String partition, String reason) {
        TrainingJob job = jobs.get(id);
        int gpus = job.placement().map(Placement::gpus).orElse(job.request().preferredGpus());
        relocate(job.withRequest(job.request().withPartition(partition)), partitionOf(job), gpus, Move.Kind.MIGRATED,
                reason);
    }

    /** Frees the job's GPUs where it runs ({@code from}) and places it again as {@code job} now asks. */
    private void relocate(TrainingJob job, String from, int gpus, Move.Kind kind, String reason) {
        String id = job.id();
        jobs.put(id, job);
        apply(planner.completed(from, id, clock.millis()));
        stopping.remove(id);
        for (PlacementDecision d : planner.place(partitionOf(job), jobs.get(id), gpus, clock.millis())) {
            if (d instanceof PlacementDecision.Placed p && p.requestId().equals(id)) {
                moveTo(jobs.get(id), placementOf(p.chosen()), kind, reason);
            } else if (d instanceof PlacementDecision.Queued q && q.requestId().equals(id)) {
                // no room there yet: stop now, the planner's Placed in the new partition starts the next run
                requestStop(jobs.get(id), JobState.CHECKPOINTING, kind, reason + "; waits: " + String.join("; ", q.reasons()),
                        StopCause.PLANNER_PREEMPT);
            } else {
                apply(List.of(d));
            }
        }
    }

    /** Stops the job for good. */
    public synchronized void cancel(String id) {
        TrainingJob job = jobs.get(id);
        if (job == null || job.state().finished()) {
            return;
        }
        job.handle().ifPresent(h -> {
            try {
                backend.cancel(h);
            } catch (BackendException e) {
                // the run may linger in the backend; the job is over for the user either way
            }
        });
        finish(job.with(JobState.CANCELLED, "cancelled"));
    }

    private void pollOne(String id) {
        TrainingJob job = jobs.get(id);
        if (job == null || job.state().finished()) {
            return;
        }
        if (job.handle().isEmpty()) {
            // placed, but the backend could not be reached to submit: try again (the planner holds its GPUs)
            job.target().ifPresent(to -> submit(jobs.get(id), to));
            return;
        }
        BackendJobStatus s;
        try {
            s = backend.status(job.handle().get());
        } catch (BackendException e) {
            change(job.with(job.state(), backend.name() + " cannot be reached, retrying: " + e.getMessage()));
            return;
        }
        job = job.withProgress(progressOf(s));
        if (job.runningSince().isPresent()
                && clock.instant().isAfter(job.runningSince().get().plus(job.request().timeLimit()))) {
            job.handle().ifPresent(this::cancelQuietly);
            finish(job.with(JobState.FAILED, "time limit of " + job.request().timeLimit().toSeconds() + " s reached"));
            return;
        }
        switch (s) {
            case BackendJobStatus.Pending p -> change(job.with(waitingState(job), p.reason()));
            case BackendJobStatus.Running r -> change(job.withPlacement(r.placement()).landed(r.placement())
                    .startedAt(clock.instant()).with(stoppingState(job).orElse(JobState.RUNNING),
                            stoppingState(job).isPresent() ? job.message() : "running"));
            case BackendJobStatus.Stopping st -> change(job);
            case BackendJobStatus.Checkpointed c -> stopped(job, "checkpointed and stopped");
            case BackendJobStatus.Killed k -> stopped(job, k.reason() + "; resumes from its last checkpoint");
            case BackendJobStatus.Lost l -> stopped(job, l.reason() + "; resumes from its last checkpoint");
            case BackendJobStatus.Succeeded ok -> finish(job.with(JobState.SUCCEEDED, "finished"));
            case BackendJobStatus.Failed f -> finish(job.with(JobState.FAILED, f.message()));
            case BackendJobStatus.Cancelled c -> finish(job.with(JobState.CANCELLED, "cancelled"));
        }
    }

    /** The current run ended resumable: start the next one where it should go, or wait for the planner. */
    private void stopped(TrainingJob job, String why) {
        StopCause cause = stopping.remove(job.id());
        if (job.target().isPresent()) {
            submit(job, job.target().get());
        } else if (cause == StopCause.PLANNER_PREEMPT) {
            // the planner queued the job again when it decided: its Placed starts the next run
            change(job.with(JobState.PREEMPTED, why + "; waits for GPUs"));
        } else if (cause == StopCause.OPERATOR_PREEMPT) {
            change(job.with(JobState.PREEMPTED, why + "; waits for GPUs"));
            // the planner still counts the GPUs as taken: free them and queue the job again
            String partition = partitionOf(job);
            apply(planner.completed(partition, job.id(), clock.millis()));
            apply(planner.place(partition, jobs.get(job.id()), job.request().preferredGpus(), clock.millis()));
        } else {
            TrainingJob requeued = job.withMove(new Move(clock.instant(), Move.Kind.REQUEUED, job.placement().orElseThrow(),
                    Optional.empty(), why, job.step()));
            submit(requeued, job.placement().orElseThrow());
        }
    }

    private void apply(List<PlacementDecision> decisions) {
        for (PlacementDecision d : decisions) {
            TrainingJob job = jobs.get(d.requestId());
            if (job == null || job.state().finished()) {
                if (d instanceof PlacementDecision.Placed p) {
                    // a job that ended while queued in the planner: let it free what it was just given
                    apply(planner.completed(PlannerBridge.partitionOf(p.chosen().site()), d.requestId(), clock.millis()));
                }
                continue;
            }
            switch (d) {
                case PlacementDecision.Placed p -> placed(job, placementOf(p.chosen()));
                case PlacementDecision.Queued q -> change(job.with(waitingState(job), String.join("; ", q.reasons())));
                case PlacementDecision.Unplaceable u -> {
                    job.handle().ifPresent(this::cancelQuietly);
                    finish(job.with(JobState.FAILED, "cannot be placed: " + String.join("; ", u.reasons())));
                }
                case PlacementDecision.Preempted p ->
                        requestStop(job, JobState.CHECKPOINTING, Move.Kind.PREEMPTED, p.reason(), StopCause.PLANNER_PREEMPT);
                case PlacementDecision.Moved m -> {
                    Placement to = placementOf(m.to());
                    boolean resize = job.placement().map(pl -> pl.gpus() != to.gpus()).orElse(false);
                    moveTo(job, to, resize ? Move.Kind.RESIZED : Move.Kind.MIGRATED, m.reason());
                }
            }
        }
    }

    private void placed(TrainingJob job, Placement to) {
        boolean live = job.handle().isPresent() && isLive(job);
        if (!live) {
            submit(job, to);
        } else if (job.state() == JobState.CHECKPOINTING || job.state() == JobState.PREEMPTED) {
            // placed again while the preempted run is still saving: start there once it has stopped
            change(job.withTarget(Optional.of(to)));
        }
        // otherwise the run already goes (a restarted provider re-placing a job that kept running)
    }

    private void moveTo(TrainingJob job, Placement to, Move.Kind kind, String reason) {
        if (job.handle().isEmpty() || !isLive(job)) {
            submit(job, to);
            return;
        }
        JobState state = kind == Move.Kind.RESIZED ? JobState.RESIZING : JobState.MIGRATING;
        requestStop(job.withTarget(Optional.of(to)), state, kind, reason, StopCause.MOVE);
    }

    private void requestStop(TrainingJob job, JobState state, Move.Kind kind, String reason, StopCause cause) {
        if (job == null || job.state().finished() || job.handle().isEmpty()) {
            return;
        }
        stopping.put(job.id(), cause);
        TrainingJob next = job.with(state, reason)
                .withMove(new Move(clock.instant(), kind, job.placement().orElseThrow(), Optional.empty(), reason, job.step()));
        change(next);
        try {
            backend.requestCheckpoint(job.handle().get(), true);
        } catch (BackendException e) {
            change(next.with(state, backend.name() + " cannot be reached to checkpoint, retrying: " + e.getMessage()));
        }
    }

    private void submit(TrainingJob job, Placement to) {
        TrainingJobSpec spec = spec(job, job.attempt() + 1);
        try {
            TrainingJob next = job.withRun(backend.submit(spec, to), to);
            JobState state = job.state() == JobState.MIGRATING || job.state() == JobState.RESIZING ? job.state()
                    : JobState.QUEUED;
            change(next.with(state, "submitted attempt " + spec.attempt() + " to " + backend.name()));
        } catch (BackendException.Rejected e) {
            finish(job.with(JobState.FAILED, e.field() + ": " + e.getMessage()));
        } catch (BackendException e) {
            // kept as the target, so the next poll submits again: the job waits, nothing is lost
            change(job.withTarget(Optional.of(to))
                    .with(job.state(), backend.name() + " cannot be reached to submit, retrying: " + e.getMessage()));
        }
    }

    private TrainingJobSpec spec(TrainingJob job, int attempt) {
        TrainingRequest r = job.request();
        return new TrainingJobSpec(job.id(), attempt, r.command(), r.image(), r.args(), r.env(), r.gpuModel(), r.cpus(),
                r.memoryMb(), r.timeLimit(), r.gracePeriod(), workRoot.resolve(job.id()).toString(),
                r.checkpointDir().toString(), r.outputDir().toString(), r.priority());
    }

    private void finish(TrainingJob job) {
        stopping.remove(job.id());
        change(job);
        apply(planner.completed(partitionOf(job), job.id(), clock.millis()));
    }

    private void change(TrainingJob job) {
        TrainingJob before = jobs.put(job.id(), job);
        if (!job.equals(before)) {
            listener.changed(job);
        }
    }

    private boolean isLive(TrainingJob job) {
        return !(job.state() == JobState.PREEMPTED && job.target().isEmpty()) && job.handle().map(h -> {
            try {
                return !backend.status(h).finished();
            } catch (BackendException e) {
                return true;
            }
        }).orElse(false);
    }

    private void cancelQuietly(dev.continuum.provider.training.backend.BackendJobHandle h) {
        try {
            backend.cancel(h);
        } catch (BackendException e) {
            // best effort: the job has failed already
        }
    }

    private String partitionOf(TrainingJob job) {
        return job.request().partition()
                .orElseGet(() -> inventory.defaultPartition().orElseThrow().name());
    }

    private Placement placementOf(PlacementDecision.Candidate c) {
        return Placement.request(inventory.site(), PlannerBridge.partitionOf(c.site()), c.gpus());
    }

    private static JobState waitingState(TrainingJob job) {
        return switch (job.state()) {
            case PREEMPTED, MIGRATING, RESIZING, CHECKPOINTING -> job.state();
            default -> JobState.QUEUED;
        };
    }

    /** The state a running job keeps while its run was asked to stop; empty once the run is the new one. */
    private Optional<JobState> stoppingState(TrainingJob job) {
        return stopping.containsKey(job.id()) ? Optional.of(job.state()) : Optional.empty();
    }

    private static Optional<dev.continuum.provider.training.backend.Progress> progressOf(BackendJobStatus s) {
        return switch (s) {
            case BackendJobStatus.Running r -> r.progress();
            case BackendJobStatus.Stopping r -> r.progress();
            case BackendJobStatus.Checkpointed r -> r.progress();
            case BackendJobStatus.Killed r -> r.progress();
            case BackendJobStatus.Succeeded r -> r.progress();
            case BackendJobStatus.Failed r -> r.progress();
            default -> Optional.empty();
        };
    }
}
