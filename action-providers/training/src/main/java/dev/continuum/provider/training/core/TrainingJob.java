package dev.continuum.provider.training.core;

import dev.continuum.provider.training.backend.BackendJobHandle;
import dev.continuum.provider.training.backend.Placement;
import dev.continuum.provider.training.backend.Progress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Everything the provider knows about one training action, immutable; the scheduler replaces it
 * on every change and the provider stores it in the action's details (so it survives a restart).
 *
 * @param attempt    runs started so far (0 before the first)
 * @param handle     the backend's handle of the current or last run
 * @param placement  where the current or last run went
 * @param target     where the job goes once its current run has checkpointed and stopped
 * @param runningSince when the first run started (the time limit counts from there)
 */
public record TrainingJob(String id, TrainingRequest request, JobState state, int attempt,
                          Optional<BackendJobHandle> handle, Optional<Placement> placement,
                          Optional<Placement> target, Optional<Progress> progress, List<Move> history,
                          String message, Optional<Instant> runningSince) {
    public TrainingJob {
        history = List.copyOf(history);
        message = message == null ? "" : message;
    }

    public static TrainingJob queued(String id, TrainingRequest request) {
        return new TrainingJob(id, request, JobState.QUEUED, 0, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), List.of(), "waiting for the planner", Optional.empty());
    }

    public TrainingJob with(JobState s, String why) {
        return new TrainingJob(id, request, s, attempt, handle, placement, target, progress, history, why, runningSince);
    }

    public TrainingJob withRun(BackendJobHandle h, Placement p) {
        return new TrainingJob(id, request, state, attempt + 1, Optional.of(h), Optional.of(p), Optional.empty(),
                progress, history, message, runningSince);
    }

    public TrainingJob withPlacement(Placement p) {
        return new TrainingJob(id, request, state, attempt, handle, Optional.of(p), target, progress, history, message,
                runningSince);
    }

    public TrainingJob withTarget(Optional<Placement> t) {
        return new TrainingJob(id, request, state, attempt, handle, placement, t, progress, history, message,
                runningSince);
    }

    public TrainingJob withProgress(Optional<Progress> p) {
        return p.isEmpty() ? this : new TrainingJob(id, request, state, attempt, handle, placement, target, p, history,
                message, runningSince);
    }

    public TrainingJob withRequest(TrainingRequest r) {
        return new TrainingJob(id, r, state, attempt, handle, placement, target, progress, history, message,
                runningSince);
    }

    public TrainingJob startedAt(Instant at) {
        return runningSince.isPresent() ? this : new TrainingJob(id, request, state, attempt, handle, placement,
                target, progress, history, message, Optional.of(at));
    }

    public TrainingJob withMove(Move m) {
        List<Move> longer = new ArrayList<>(history);
        longer.add(m);
        return new TrainingJob(id, request, state, attempt, handle, placement, target, progress, longer, message,
                runningSince);
    }

    public TrainingJob withHistory(List<Move> h) {
        return new TrainingJob(id, request, state, attempt, handle, placement, target, progress, h, message,
                runningSince);
    }

    /** Completes the last move with where the job went. */
    public TrainingJob landed(Placement p) {
        if (history.isEmpty() || history.getLast().to().isPresent()) {
            return this;
        }
        List<Move> h = new ArrayList<>(history);
        h.set(h.size() - 1, h.getLast().withTo(p));
        return new TrainingJob(id, request, state, attempt, handle, placement, target, progress, h, message,
                runningSince);
    }

    public long step() {
        return progress.map(Progress::step).orElse(0L);
    }
}
