package dev.continuum.provider.client;

import dev.continuum.provider.api.Problem;
import java.util.Optional;

/**
 * Why a call to an action provider failed. {@link #retryable()} tells the caller whether the
 * same call (same {@code request_id}) may be sent again: the provider could not be reached, timed
 * out, or said it is overloaded (429, 502, 503, 504).
 */
public final class ActionProviderException extends RuntimeException {

    private final int httpStatus;
    private final boolean retryable;
    private final transient Problem problem;

    public ActionProviderException(String message, int httpStatus, boolean retryable, Problem problem, Throwable cause) {
        super(message, cause, false, false);
        this.httpStatus = httpStatus;
        this.retryable = retryable;
        this.problem = problem;
    }

    /** The provider could not be reached or did not answer in time. */
    public static ActionProviderException unreachable(String url, Throwable cause) {
        String reason = cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
        return new ActionProviderException("Action provider unreachable at " + url + ": " + reason, 0, true, null, cause);
    }

    /** The provider answered with an error status. */
    public static ActionProviderException fromResponse(String url, int status, Problem problem) {
        String what = problem == null ? "" : ": " + (problem.detail() != null ? problem.detail() : problem.title());
        return new ActionProviderException("Action provider at " + url + " answered " + status + what, status,
                isRetryableStatus(status), problem, null);
    }

    public static boolean isRetryableStatus(int status) {
        return status == 429 || status == 502 || status == 503 || status == 504;
    }

    /** HTTP status of the answer; 0 when the provider could not be reached. */
    public int httpStatus() {
        return httpStatus;
    }

    public boolean retryable() {
        return retryable;
    }

    /** The provider's problem document, when it sent one. */
    public Optional<Problem> problem() {
        return Optional.ofNullable(problem);
    }
}
