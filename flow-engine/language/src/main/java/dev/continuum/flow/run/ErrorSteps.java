package dev.continuum.flow.run;

import static dev.continuum.flow.run.Execution.JSON;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.data.DataException;
import dev.continuum.flow.data.JsonPaths;
import dev.continuum.flow.model.ActionState;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.ChoiceState;
import dev.continuum.flow.model.ErrorNames;
import dev.continuum.flow.model.ExpressionEvalState;
import dev.continuum.flow.model.FailState;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.ParallelState;
import dev.continuum.flow.model.PassState;
import dev.continuum.flow.model.Retrier;
import dev.continuum.flow.model.State;
import dev.continuum.flow.model.WaitState;
import dev.continuum.flow.run.RunData.Branch;
import dev.continuum.flow.run.RunData.WaitKind;
import dev.continuum.flow.run.RunData.Waiting;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * What an error does: the state's first matching Retry schedules another attempt, else its first
 * matching Catch moves on, else the branch fails, and with it its Parallel or Map parent, up to the run.
 */
final class ErrorSteps {

    private ErrorSteps() {
    }

    /** An error in a state that may Retry or Catch it (Action, Parallel, Map). */
    static void handleError(Execution x, Branch branch, String error, String cause) {
        State state = x.stateOf(branch);
        List<Retrier> retriers = switch (state) {
            case ActionState a -> a.retry();
            case ParallelState p -> p.retry();
            case MapState m -> m.retry();
            case PassState p -> List.of();
            case ChoiceState c -> List.of();
            case WaitState w -> List.of();
            case FailState f -> List.of();
            case ExpressionEvalState e -> List.of();
        };
        List<Catcher> catchers = switch (state) {
            case ActionState a -> a.catchers();
            case ParallelState p -> p.catchers();
            case MapState m -> m.catchers();
            case PassState p -> List.of();
            case ChoiceState c -> List.of();
            case WaitState w -> List.of();
            case FailState f -> List.of();
            case ExpressionEvalState e -> List.of();
        };
        dropChildren(x, branch);
        for (int i = 0; i < retriers.size(); i++) {
            Retrier retrier = retriers.get(i);
            if (ErrorNames.matches(retrier.errorEquals(), error)) {
                int used = branch.retriesUsed.getOrDefault(String.valueOf(i), 0);
                if (used < retrier.maxAttempts()) {
                    scheduleRetry(x, branch, retrier, i, used, error, cause);
                    return;
                }
                break; // the first matching retrier decides; when it is exhausted, catchers take over
            }
        }
        for (Catcher catcher : catchers) {
            if (ErrorNames.matches(catcher.errorEquals(), error)) {
                ObjectNode errorInfo = JSON.objectNode();
                errorInfo.put("Error", error);
                errorInfo.put("Cause", cause);
                x.logLine("StateCaught", state.name(), "Caught " + error + "; going to '" + catcher.next() + "'",
                        errorInfo);
                try {
                    JsonNode data = JsonPaths.place(branch.data, catcher.resultPath(), errorInfo);
                    x.moveOn(branch, Optional.of(catcher.next()), data);
                } catch (DataException e) {
                    x.failRun(ErrorNames.RUNTIME, x.where(branch) + " Catch " + e.getMessage());
                }
                return;
            }
        }
        failBranch(x, branch, error, cause);
    }

    private static void scheduleRetry(Execution x, Branch branch, Retrier retrier, int index, int used, String error,
                                      String cause) {
        double delay = retrier.intervalSeconds() * Math.pow(retrier.backoffRate(), used);
        if (retrier.maxDelaySeconds().isPresent()) {
            delay = Math.min(delay, retrier.maxDelaySeconds().get());
        }
        if (retrier.jitterStrategy() == Retrier.JitterStrategy.FULL) {
            // deterministic per run and attempt, so a replayed step schedules the same retry
            delay = new Random(x.requestId(branch).hashCode()).nextDouble() * delay;
        }
        branch.retriesUsed.put(String.valueOf(index), used + 1);
        Waiting waiting = new Waiting();
        waiting.kind = WaitKind.RETRY;
        waiting.token = x.token(branch) + "#retry";
        waiting.at = x.now.plusMillis((long) (delay * 1000));
        branch.waiting = waiting;
        branch.attempt++;
        x.effects.add(new Effect.ScheduleTimer(waiting.token, waiting.at));
        ObjectNode details = JSON.objectNode();
        details.put("Error", error);
        details.put("Cause", cause);
        details.put("retry_at", waiting.at.toString());
        details.put("attempt", branch.attempt);
        x.logLine("ActionRetrying", branch.stateName, "Retrying after " + error + " (retry " + (used + 1) + " of "
                + retrier.maxAttempts() + ")", details);
    }

    /** A retry delay elapsed: run the state again. */
    static void retryNow(Branch branch) {
        branch.waiting = null;
    }

    /** The branch ended in error with nothing left to catch it: its parent state (or the run) fails. */
    static void failBranch(Execution x, Branch branch, String error, String cause) {
        if (branch.parent == null) {
            x.failRun(error, cause);
            return;
        }
        Branch parent = x.run.branches.get(branch.parent);
        x.run.branches.remove(branch.id);
        handleError(x, parent, error, cause);
    }

    /** Removes the children of a Parallel/Map branch, cancelling their running actions. */
    private static void dropChildren(Execution x, Branch parent) {
        for (Branch child : List.copyOf(x.run.branches.values())) {
            if (parent.id.equals(child.parent) && x.run.branches.containsKey(child.id)) {
                dropChildren(x, child);
                if (child.waiting != null && child.waiting.kind == WaitKind.ACTION && child.waiting.action.actionId != null) {
                    x.effects.add(new Effect.CancelAction(child.waiting.action.actionUrl, child.waiting.action.actionId,
                            child.waiting.action.runAs));
                }
                x.run.branches.remove(child.id);
            }
        }
    }
}
