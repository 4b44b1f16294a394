package dev.continuum.provider.training.core;

import dev.continuum.placement.core.planner.PlacementDecision;
import dev.continuum.placement.core.policy.MovePolicy;
import dev.continuum.provider.client.FileCarrier;
import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.provider.training.backend.BackendInventory;
import dev.continuum.provider.training.backend.BackendJobStatus;
import dev.continuum.provider.training.backend.Checkpoints;
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
import java.util.Set;

/**
 * Runs training jobs on the backends of one or more sites as the planner decides: a new job is placed (or
 * queued), a {@code Preempted} decision checkpoints and stops a run, a {@code Moved} one checkpoints it and
 * starts the next attempt at the new placement (other GPUs count = resize), a completion frees GPUs for what
 * waits. A move to another site carries the newest checkpoint there first through the {@link FileCarrier}
 * (the transfer provider), checks its SHA-256 at the destination and resumes the job there; when the carry fails
 * the job resumes where it was. {@link #poll} follows the backends' runs and the carries; everything is on the
 * caller's thread under this object's lock. Backend outages leave jobs as they are with a message; the next poll
 * tries again.
 */
public final class TrainingScheduler {
    private final Map<String, TrainingSite> sites = new LinkedHashMap<>();
    private final TrainingSite home;
    private final FileCarrier carrier;
    private final PlannerBridge planner;
    private final Clock clock;
    private final JobListener listener;
    private final Map<String, TrainingJob> jobs = new LinkedHashMap<>();
    /** Why a job's current run was asked to checkpoint and stop, until it has. */
    private final Map<String, StopCause> stopping = new LinkedHashMap<>();
    /** Checkpoints on their way to another site, by job. */
    private final Map<String, Carry> carrying = new LinkedHashMap<>();

    private enum StopCause { PLANNER_PREEMPT, OPERATOR_PREEMPT, MOVE }

    /** A carry under way: the transfer action, where the job goes, what was sent and where it lands. */
    private record Carry(String transferAction, Placement to, Checkpoints.Checkpoint checkpoint, String sha256,
                         Path checkpointDir, Path outputDir, long startedMillis) {
    }

    /** One site: {@code backend}, its work files under {@code workRoot}; jobs never leave it. */
    public TrainingScheduler(TrainingBackend backend, String policy, Clock clock, JobListener listener, Path workRoot)
            throws BackendException {
        this(List.of(new TrainingSite(backend.inventory().site(), backend, backend.inventory(), Path.of("/"),
                Optional.empty(), workRoot)), FileCarrier.NONE, policy, clock, listener);
    }

    /** Several sites, the first the home of new jobs; {@code carrier} takes checkpoints from one to another. */
    public TrainingScheduler(List<TrainingSite> sites, FileCarrier carrier, String policy, Clock clock,
                             JobListener listener) {
        this(sites, carrier, policy, MovePolicy.Costs.DEFAULT, clock, listener);
    }

    /** As above; with {@code +move} in {@code policy} the planner moves jobs between partitions and sites at {@code moveCosts}. */
    public TrainingScheduler(List<TrainingSite> sites, FileCarrier carrier, String policy,
                             MovePolicy.Costs moveCosts, Clock clock, JobListener listener) {
        this(sites, carrier, policy, moveCosts, clock, listener, DecisionListener.NONE);
    }

    /** As above, {@code decisions} told every decision of the planner (the provider reports them to the planner's log). */
    public TrainingScheduler(List<TrainingSite> sites, FileCarrier carrier, String policy,
                             MovePolicy.Costs moveCosts, Clock clock, JobListener listener, DecisionListener decisions) {
        for (TrainingSite site : sites) {
            if (this.sites.put(site.name(), site) != null) {
                throw new IllegalArgumentException("two sites are named " + site.name());
            }
        }
        this.home = sites.getFirst();
        this.carrier = carrier;
        this.planner = new PlannerBridge(sites.stream().map(TrainingSite::inventory).toList(), policy, moveCosts,
                clock.millis(), decisions);
        this.clock = clock;
        this.listener = listener;
    }

    /** The home site's inventory: what a new request is checked against. */
    public BackendInventory inventory() {
        return home.inventory();
    }

    public List<TrainingSite> sites() {
        return List.copyOf(sites.values());
    }

    public synchronized Optional<TrainingJob> job(String id) {
        return Optional.ofNullable(jobs.get(id));
    }

    /** Every job this scheduler knows, in the order it was admitted (finished ones too, until the provider restarts). */
    public synchronized List<TrainingJob> jobs() {
        return List.copyOf(jobs.values());
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
        apply(planner.place(where(job), job, gpus, clock.millis()));
    }

    /** Follows every unfinished job's run and lets the planner take a round. */
    public synchronized void poll() {
        for (String id : new ArrayList<>(jobs.keySet())) {
            pollOne(id);
        }
        apply(planner.tick(clock.millis()));
        if (planner.moves()) {
            plannerMoves();
        }
    }

    /**
     * The planner's {@code +move} round over every partition of every site: each move it decides is carried out
     * exactly as an operator's {@link #migrate} (checkpoint, stop, carry when the site changes, resume), its history
     * entry's reason "planner: …". Jobs already stopping, moving or being carried are not offered to it.
     */
    private void plannerMoves() {
        Set<String> waiting = planner.waiting();
        if (waiting.isEmpty()) {
            return; // both of its rules start from a job that waits
        }
        long now = clock.millis();
        List<MovePolicy.JobView> views = new ArrayList<>();
        for (TrainingJob job : jobs.values()) {
            String id = job.id();
            if (job.state().finished() || stopping.containsKey(id) || carrying.containsKey(id)
                    || job.target().isPresent()) {
                continue;
            }
            MovePolicy.Phase phase;
            if (waiting.contains(id) && (job.handle().isEmpty() || job.state() == JobState.PREEMPTED)) {
                phase = MovePolicy.Phase.WAITING;
            } else if (job.state() == JobState.RUNNING && !waiting.contains(id)) {
                phase = MovePolicy.Phase.RUNNING;
            } else {
                continue; // submitted and not yet running, or between states: not now
            }
            TrainingRequest r = job.request();
            Path dir = r.checkpointDir().toAbsolutePath().normalize();
            long checkpointBytes = Checkpoints.newest(dir).map(Checkpoints.Checkpoint::sizeBytes).orElse(0L);
            long ranMillis = job.runningSince().map(t -> now - t.toEpochMilli()).orElse(0L);
            double remaining = Math.max(0, r.timeLimit().toMillis() - ranMillis) / 1000.0;
            long placedAt = Math.max(job.runningSince().map(java.time.Instant::toEpochMilli).orElse(0L),
                    job.history().isEmpty() ? 0 : job.history().getLast().at().toEpochMilli());
            TrainingSite at = checkpointSite(job);
            boolean crossSite = sites.size() > 1 && dir.startsWith(at.root())
                    && sites.values().stream().allMatch(s -> s.transferEndpoint().isPresent());
            views.add(new MovePolicy.JobView(id, where(job), phase, job.placement().map(Placement::gpus)
                    .orElse(r.preferredGpus()), r.gpuModel().map(Set::of).orElse(Set.of()), r.priority(),
                    checkpointBytes, remaining, placedAt / 1000.0, crossSite));
        }
        for (MovePolicy.Move m : planner.decideMoves(views, now)) {
            migrate(m.jobId(), PlannerBridge.siteOf(m.to()), PlannerBridge.partitionOf(m.to()), "planner: " + m.reason());
        }
    }

    /** Operator: checkpoint, stop and requeue the job. */
    public synchronized void preempt(String id, String reason) {
        TrainingJob job = jobs.get(id);
        requestStop(job, JobState.CHECKPOINTING, Move.Kind.PREEMPTED, reason, StopCause.OPERATOR_PREEMPT);
    }

    /** Operator: run the job on {@code gpus} GPUs from its next checkpoint on. */
    public synchronized void resize(String id, int gpus, String reason) {
        TrainingJob job = jobs.get(id);
        relocate(job.withRequest(job.request().withGpus(gpus, gpus)), where(job), gpus, Move.Kind.RESIZED, reason);
    }

    /**
     * Operator: move the job to {@code partition} of {@code site} from its next checkpoint on, with the GPUs it has.
     * When that partition has no room now, the job checkpoints, stops and waits there (state preempted) for the
     * planner. Another site gets the checkpoint through the carrier before the job starts there.
     */
    public synchronized void migrate(String id, String site, String partition, String reason) {
        TrainingJob job = jobs.get(id);
        int gpus = job.placement().map(Placement::gpus).orElse(job.request().preferredGpus());
        TrainingRequest r = job.request();
        relocate(job.withRequest(r.atSite(site, partition, r.checkpointDir(), r.outputDir())), where(job), gpus,
                Move.Kind.MIGRATED, reason);
    }

    /** Operator: move the job to {@code partition} of the site it is at. */
    public synchronized void migrate(String id, String partition, String reason) {
        migrate(id, siteOf(jobs.get(id)), partition, reason);
    }

    /** Frees the job's GPUs where it runs ({@code from}) and places it again as {@code job} now asks. */
    private void relocate(TrainingJob job, String from, int gpus, Move.Kind kind, String reason) {
        String id = job.id();
        // where it was, for the history of a job that is not running (it has nothing to checkpoint first)
        Placement was = job.placement().filter(p -> PlannerBridge.siteName(p.site(), p.partition()).equals(from))
                .orElse(Placement.request(PlannerBridge.siteOf(from), PlannerBridge.partitionOf(from), gpus));
        jobs.put(id, job);
        apply(planner.completed(from, id, clock.millis()));
        stopping.remove(id);
        for (PlacementDecision d : planner.place(where(job), jobs.get(id), gpus, clock.millis())) {
            if (d instanceof PlacementDecision.Placed p && p.requestId().equals(id)) {
                TrainingJob now = jobs.get(id);
                Placement to = placementOf(p.chosen());
                if (now.handle().isEmpty() || !isLive(now)) {
                    now = now.withMove(new Move(clock.instant(), kind, was, Optional.of(to), reason, now.step()));
                }
                moveTo(now, to, kind, reason);
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
        job.handle().ifPresent(h -> cancelQuietly(job, h)); // the run may linger in the backend; the job is over either way
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
        Carry carry = carrying.get(id);
        if (carry != null) {
            followCarry(job, carry);
            return;
        }
        if (job.state() == JobState.PREEMPTED && job.target().isEmpty() && !stopping.containsKey(id)) {
            // its last run has stopped and been dealt with; it waits for the planner's Placed. Asking the backend
            // again would see that run "checkpointed" a second time and requeue the job behind the planner's back
            return;
        }
        TrainingBackend backend = runSite(job).backend();
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
            cancelQuietly(job, job.handle().get());
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
            String where = where(job);
            apply(planner.completed(where, job.id(), clock.millis()));
            apply(planner.place(where, jobs.get(job.id()), job.request().preferredGpus(), clock.millis()));
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
                    apply(planner.completed(p.chosen().site(), d.requestId(), clock.millis()));
                }
                continue;
            }
            switch (d) {
                case PlacementDecision.Placed p -> placed(job, placementOf(p.chosen()));
                case PlacementDecision.Queued q -> change(job.with(waitingState(job), String.join("; ", q.reasons())));
                case PlacementDecision.Unplaceable u -> {
                    TrainingJob unplaced = job;
                    job.handle().ifPresent(h -> cancelQuietly(unplaced, h));
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
        TrainingBackend backend = runSite(job).backend();
        try {
            backend.requestCheckpoint(job.handle().get(), true);
        } catch (BackendException e) {
            change(next.with(state, backend.name() + " cannot be reached to checkpoint, retrying: " + e.getMessage()));
        }
    }

    private void submit(TrainingJob job, Placement to) {
        if (!to.site().equals(checkpointSite(job).name())) {
            carry(job, to);
            return;
        }
        TrainingBackend backend = site(to.site()).backend();
        TrainingJobSpec spec = spec(job, job.attempt() + 1, site(to.site()));
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

    /**
     * The job goes to another site than the one holding its checkpoints: send the newest checkpoint to that site's
     * checkpoint directory (under a temporary name) through the carrier, the job waiting as migrating, the planner
     * keeping its GPUs there. {@link #followCarry} resumes it once the checkpoint arrived intact.
     */
    private void carry(TrainingJob job, Placement to) {
        if (carrying.containsKey(job.id())) {
            return;
        }
        TrainingSite from = checkpointSite(job);
        TrainingSite dest = site(to.site());
        Path checkpointDir = job.request().checkpointDir().toAbsolutePath().normalize();
        Path destDir = dest.root().resolve(from.root().relativize(checkpointDir).toString());
        Path destOutput = relocated(job.request().outputDir(), from, dest);
        TrainingJob waiting = job.withTarget(Optional.of(to));
        Optional<Checkpoints.Checkpoint> newest = Checkpoints.newest(checkpointDir);
        if (newest.isEmpty()) {
            // nothing saved yet: the job starts afresh there
            submit(waiting.withRequest(job.request().atSite(to.site(), to.partition(), destDir, destOutput)), to);
            return;
        }
        Checkpoints.Checkpoint ckpt = newest.get();
        String name = ckpt.path().getFileName().toString();
        if (!checkpointDir.startsWith(from.root())) {
            carryFailed(waiting, to, ckpt, "", "", "checkpoint location " + checkpointDir + " is not below site "
                    + from.name() + "'s directory " + from.root() + ", so it has no place at another site");
            return;
        }
        if (from.transferEndpoint().isEmpty() || dest.transferEndpoint().isEmpty()) {
            carryFailed(waiting, to, ckpt, "", "", "site " + (from.transferEndpoint().isEmpty() ? from : dest).name()
                    + " has no transfer endpoint");
            return;
        }
        String sha256;
        try {
            sha256 = Checkpoints.sha256(ckpt.path());
        } catch (java.io.IOException e) {
            carryFailed(waiting, to, ckpt, "", "", "cannot read checkpoint " + name + ": " + e.getMessage());
            return;
        }
        FileCarrier.Order order = new FileCarrier.Order("carry-" + job.id() + "-a" + job.attempt() + "-s"
                + ckpt.step(), from.transferEndpoint().get(), "/" + from.root().relativize(ckpt.path()),
                dest.transferEndpoint().get(), "/" + dest.root().relativize(destDir.resolve(Checkpoints.temporaryName(
                        ckpt.step()))), java.nio.file.Files.isDirectory(ckpt.path()),
                "checkpoint " + name + " of training " + job.id() + " to site " + dest.name());
        try {
            String action = carrier.start(order);
            carrying.put(job.id(), new Carry(action, to, ckpt, sha256, destDir, destOutput, clock.millis()));
            change(waiting.with(JobState.MIGRATING, "carrying checkpoint " + name + " (" + ckpt.sizeBytes()
                    + " bytes) from site " + from.name() + " to site " + dest.name() + " (transfer action " + action + ")"));
        } catch (FileCarrier.CarryException e) {
            carryFailed(waiting, to, ckpt, sha256, "", "the transfer provider refused: " + e.getMessage());
        }
    }

    /** A carry under way: follow its transfer; once it succeeded, check the checkpoint there and resume the job. */
    private void followCarry(TrainingJob job, Carry c) {
        String name = c.checkpoint().path().getFileName().toString();
        FileCarrier.Progress progress;
        try {
            progress = carrier.status(c.transferAction());
        } catch (FileCarrier.CarryException e) {
            change(job.with(JobState.MIGRATING, "the transfer provider cannot be reached, retrying: " + e.getMessage()));
            return;
        }
        switch (progress) {
            case FileCarrier.Progress.Active a -> change(job.with(JobState.MIGRATING, "carrying checkpoint " + name
                    + " to site " + c.to().site() + ": " + a.bytes() + " of " + c.checkpoint().sizeBytes() + " bytes"
                    + " (transfer action " + c.transferAction() + ")"));
            case FileCarrier.Progress.Failed f -> carryFailed(job, c.to(), c.checkpoint(), c.sha256(),
                    c.transferAction(), "transfer action " + c.transferAction() + " failed: " + f.reason());
            case FileCarrier.Progress.Succeeded ok -> arrived(job, c, ok.bytes());
        }
    }

    private void arrived(TrainingJob job, Carry c, long bytes) {
        String name = c.checkpoint().path().getFileName().toString();
        Path landed = c.checkpointDir().resolve(Checkpoints.temporaryName(c.checkpoint().step()));
        String there;
        try {
            there = Checkpoints.sha256(landed);
        } catch (java.io.IOException e) {
            carryFailed(job, c.to(), c.checkpoint(), c.sha256(), c.transferAction(), "the transfer succeeded but "
                    + landed + " cannot be read there: " + e.getMessage());
            return;
        }
        if (!there.equals(c.sha256())) {
            carryFailed(job, c.to(), c.checkpoint(), c.sha256(), c.transferAction(), "checkpoint " + name
                    + " arrived with SHA-256 " + there + ", the source has " + c.sha256());
            return;
        }
        try {
            // complete only now, as the protocol wants: the job never sees a half-carried checkpoint
            java.nio.file.Files.move(landed, c.checkpointDir().resolve(name), java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (java.io.IOException e) {
            carryFailed(job, c.to(), c.checkpoint(), c.sha256(), c.transferAction(), "cannot rename the carried "
                    + "checkpoint into place: " + e.getMessage());
            return;
        }
        carrying.remove(job.id());
        Move.Carried carried = new Move.Carried(name, bytes, c.sha256(), c.transferAction(),
                clock.millis() - c.startedMillis(), Optional.empty());
        submit(withCarried(job, carried).withRequest(job.request().atSite(c.to().site(), c.to().partition(),
                c.checkpointDir(), c.outputDir())), c.to());
    }

    /**
     * The checkpoint could not be carried: the job stays at the site holding its checkpoints and resumes there (the
     * planner places it again in the partition it ran in); the move's history entry and the message say why.
     */
    private void carryFailed(TrainingJob job, Placement to, Checkpoints.Checkpoint ckpt, String sha256, String action,
                             String why) {
        carrying.remove(job.id());
        TrainingSite at = checkpointSite(job);
        String partition = job.placement().filter(p -> p.site().equals(at.name())).map(Placement::partition)
                .orElseGet(() -> at.inventory().defaultPartition().orElseThrow().name());
        String message = "moving to site " + to.site() + " failed: " + why + "; the job stays at site " + at.name()
                + " and resumes there from " + ckpt.path().getFileName();
        TrainingRequest r = job.request();
        TrainingJob back = withCarried(job, new Move.Carried(ckpt.path().getFileName().toString(), 0, sha256, action,
                0, Optional.of(why))).withRequest(r.atSite(at.name(), partition, r.checkpointDir(), r.outputDir()))
                .withTarget(Optional.empty()).with(JobState.PREEMPTED, message);
        change(back);
        apply(planner.completed(PlannerBridge.siteName(to.site(), to.partition()), job.id(), clock.millis()));
        apply(planner.place(where(back), back, job.placement().map(Placement::gpus).orElse(r.preferredGpus()),
                clock.millis()));
        TrainingJob now = jobs.get(job.id());
        if (!now.message().startsWith(message)) {
            change(now.with(now.state(), message + "; " + now.message()));
        }
    }

    /** The job's last move, now with what was carried. */
    private static TrainingJob withCarried(TrainingJob job, Move.Carried carried) {
        if (job.history().isEmpty()) {
            return job;
        }
        List<Move> history = new ArrayList<>(job.history());
        Move last = history.removeLast();
        history.add(new Move(last.at(), last.kind(), last.from(), last.to(), last.reason(), last.step(),
                Optional.of(carried)));
        return job.withHistory(history);
    }

    /** {@code path} below {@code from}'s root, the same path below {@code to}'s (unchanged when not below). */
    private static Path relocated(Path path, TrainingSite from, TrainingSite to) {
        Path p = path.toAbsolutePath().normalize();
        return p.startsWith(from.root()) ? to.root().resolve(from.root().relativize(p).toString()) : p;
    }

    private TrainingJobSpec spec(TrainingJob job, int attempt, TrainingSite at) {
        TrainingRequest r = job.request();
        return new TrainingJobSpec(job.id(), attempt, r.command(), r.image(), r.args(), r.env(), r.gpuModel(), r.cpus(),
                r.memoryMb(), r.timeLimit(), r.gracePeriod(), at.workRoot().resolve(job.id()).toString(),
                r.checkpointDir().toString(), r.outputDir().toString(), r.priority());
    }

    private void finish(TrainingJob job) {
        stopping.remove(job.id());
        carrying.remove(job.id());
        change(job);
        apply(planner.completed(where(job), job.id(), clock.millis()));
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
                return !runSite(job).backend().status(h).finished();
            } catch (BackendException e) {
                return true;
            }
        }).orElse(false);
    }

    private void cancelQuietly(TrainingJob job, dev.continuum.provider.training.backend.BackendJobHandle h) {
        try {
            runSite(job).backend().cancel(h);
        } catch (BackendException e) {
            // best effort: the job has failed already
        }
    }

    /** The planner that places the job: its request's site and partition. */
    private String where(TrainingJob job) {
        TrainingSite site = site(siteOf(job));
        String partition = job.request().partition()
                .orElseGet(() -> site.inventory().defaultPartition().orElseThrow().name());
        return PlannerBridge.siteName(site.name(), partition);
    }

    private String siteOf(TrainingJob job) {
        return job.request().site().orElse(home.name());
    }

    private TrainingSite site(String name) {
        return sites.getOrDefault(name, home);
    }

    /** The site of the job's current or last run: where its backend handle belongs. */
    private TrainingSite runSite(TrainingJob job) {
        return site(job.placement().map(Placement::site).orElse(siteOf(job)));
    }

    /** The site whose directory holds the job's checkpoints (the home site when none does). */
    private TrainingSite checkpointSite(TrainingJob job) {
        Path dir = job.request().checkpointDir().toAbsolutePath().normalize();
        return sites.size() == 1 ? home : sites.values().stream().filter(s -> dir.startsWith(s.root())).findFirst()
                .orElse(home);
    }

    private Placement placementOf(PlacementDecision.Candidate c) {
        return Placement.request(PlannerBridge.siteOf(c.site()), PlannerBridge.partitionOf(c.site()), c.gpus());
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
