package dev.continuum.flow.model;

import java.util.List;

/** Error names the engine raises; flows match them in {@code Retry} and {@code Catch}. */
public final class ErrorNames {

    /** Matches every error a Retry or Catch can handle. */
    public static final String ALL = "States.ALL";
    /** Matches every error raised by an Action (ActionUnableToRun, ActionFailedException, ActionTimeout). */
    public static final String TASK_FAILED = "States.TaskFailed";
    /** The action provider refused the request or could not be reached. */
    public static final String ACTION_UNABLE_TO_RUN = "ActionUnableToRun";
    /** The action ended FAILED and the state has ExceptionOnActionFailure true. */
    public static final String ACTION_FAILED = "ActionFailedException";
    /** The action was still running when its WaitTime elapsed; it has been cancelled. */
    public static final String ACTION_TIMEOUT = "ActionTimeout";
    /** A path matched nothing, or data had the wrong shape; the run fails (not catchable). */
    public static final String RUNTIME = "States.Runtime";
    /** The state document grew beyond the configured limit; the run fails (not catchable). */
    public static final String DATA_LIMIT_EXCEEDED = "States.DataLimitExceeded";
    /**
     * The run entered more states than its limit allows (25,000 by default): a loop with no way out,
     * such as Pass and Choice states cycling forever; the run fails (not catchable).
     */
    public static final String TRANSITION_LIMIT_EXCEEDED = "States.TransitionLimitExceeded";
    /** A Choice state matched no rule and has no Default. */
    public static final String NO_CHOICE_MATCHED = "States.NoChoiceMatched";

    /** Errors that end the run at once: Retry and Catch do not see them. */
    public static final List<String> TERMINAL = List.of(RUNTIME, DATA_LIMIT_EXCEEDED, TRANSITION_LIMIT_EXCEEDED);

    private ErrorNames() {
    }

    public static boolean matches(List<String> errorEquals, String error) {
        if (TERMINAL.contains(error)) {
            return false;
        }
        for (String candidate : errorEquals) {
            if (candidate.equals(ALL) || candidate.equals(error)) {
                return true;
            }
            if (candidate.equals(TASK_FAILED)
                    && List.of(ACTION_UNABLE_TO_RUN, ACTION_FAILED, ACTION_TIMEOUT).contains(error)) {
                return true;
            }
        }
        return false;
    }
}
