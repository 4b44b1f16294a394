package dev.continuum.provider.training.backend.slurm;

import dev.continuum.provider.training.backend.BackendException;
import dev.continuum.slurm.rest.ApiException;
import dev.continuum.slurm.rest.model.V0038JobResponseProperties;
import dev.continuum.slurm.rest.model.V0038JobSubmissionResponse;
import dev.continuum.slurm.rest.model.V0038JobsResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Every slurmrestd call of the backend goes through here: a call that finds Slurm down (no answer, a 5xx, or
 * slurmrestd reporting it cannot reach slurmctld) is tried again with growing pauses, then reported as
 * {@link BackendException.Unavailable} with a message saying which Slurm and what failed, so the provider keeps
 * the action waiting and tries later; a refusal of the request itself becomes {@link BackendException.Rejected}
 * naming the request field.
 */
final class SlurmCalls {
    private final SlurmSettings settings;

    SlurmCalls(SlurmSettings settings) {
        this.settings = settings;
    }

    interface Call<T> {
        T run() throws ApiException;
    }

    interface Action {
        void run() throws ApiException;
    }

    <T> T call(String what, Call<T> call) throws BackendException {
        Duration pause = settings.backoff();
        ApiException last = null;
        for (int attempt = 1; attempt <= settings.attempts(); attempt++) {
            try {
                return call.run();
            } catch (ApiException e) {
                if (!transient_(e)) {
                    throw rejected(what, e);
                }
                last = e;
            }
            if (attempt < settings.attempts()) {
                sleep(pause);
                pause = pause.multipliedBy(2);
            }
        }
        throw new BackendException.Unavailable("Slurm at " + settings.restUrl() + " is unavailable (" + what + ", "
                + settings.attempts() + " attempts): " + summary(last) + "; the job is kept and retried", last);
    }

    /** A job by id, empty when Slurm does not know it (never submitted, or purged after MinJobAge). */
    Optional<V0038JobResponseProperties> job(String what, Call<V0038JobsResponse> call) throws BackendException {
        try {
            V0038JobsResponse response = call(what, () -> {
                try {
                    return call.run();
                } catch (ApiException e) {
                    if (missing(e)) {
                        return null;
                    }
                    throw e;
                }
            });
            return response == null || response.getJobs() == null || response.getJobs().isEmpty()
                    ? Optional.empty() : Optional.of(response.getJobs().getFirst());
        } catch (BackendException.Rejected e) {
            return Optional.empty();
        }
    }

    /** An update or signal; a job Slurm no longer knows has nothing left to change. */
    void ignoringMissing(String what, Action action) throws BackendException {
        call(what, () -> {
            try {
                action.run();
            } catch (ApiException e) {
                if (!missing(e)) {
                    throw e;
                }
            }
            return null;
        });
    }

    /**
     * A submit that is not repeated blindly: before every retry, {@code existing} looks for the job a lost
     * answer may have created.
     */
    long submit(String what, Call<Optional<Long>> existing, Call<V0038JobSubmissionResponse> submit) throws BackendException {
        boolean retry = false;
        Duration pause = settings.backoff();
        ApiException last = null;
        for (int attempt = 1; attempt <= settings.attempts(); attempt++) {
            try {
                if (retry) {
                    Optional<Long> found = existing.run();
                    if (found.isPresent()) {
                        return found.get();
                    }
                }
                V0038JobSubmissionResponse response = submit.run();
                if (response.getJobId() == null) {
                    throw new BackendException.Rejected(field(String.valueOf(response.getErrors())),
                            "Slurm refused the job: " + response.getErrors());
                }
                return response.getJobId();
            } catch (ApiException e) {
                if (!transient_(e)) {
                    throw rejected(what, e);
                }
                last = e;
                retry = true;
            }
            if (attempt < settings.attempts()) {
                sleep(pause);
                pause = pause.multipliedBy(2);
            }
        }
        throw new BackendException.Unavailable("Slurm at " + settings.restUrl() + " is unavailable (" + what + ", "
                + settings.attempts() + " attempts): " + summary(last) + "; the job is kept and retried", last);
    }

    private static boolean missing(ApiException e) {
        return body(e).contains("Invalid job id");
    }

    /** No answer, a server error, or slurmrestd saying slurmctld is unreachable. */
    private static boolean transient_(ApiException e) {
        String body = body(e);
        if (body.contains("Invalid partition") || body.contains("Requested node configuration")
                || body.contains("Invalid generic resource") || body.contains("Invalid job id")) {
            return false;
        }
        return e.getCode() == 0 || e.getCode() >= 500 || body.contains("Unable to contact slurm controller");
    }

    private static BackendException.Rejected rejected(String what, ApiException e) {
        String body = body(e);
        return new BackendException.Rejected(field(body), "Slurm refused to " + what + ": " + firstError(body));
    }

    /** The request field a Slurm refusal is about. */
    static String field(String slurmError) {
        if (slurmError.contains("partition")) {
            return "partition";
        }
        if (slurmError.contains("node configuration") || slurmError.contains("generic resource") || slurmError.contains("gres")) {
            return "gpus";
        }
        if (slurmError.contains("time limit")) {
            return "time_limit";
        }
        return "body";
    }

    private static String firstError(String body) {
        int at = body.indexOf("\"error\"");
        if (at < 0) {
            return body.isBlank() ? "no reason given" : body.strip();
        }
        int start = body.indexOf('"', body.indexOf(':', at) + 1) + 1;
        int end = body.indexOf('"', start);
        return start > 0 && end > start ? body.substring(start, end) : body.strip();
    }

    private static String body(ApiException e) {
        String body = e.getResponseBody();
        return body == null ? String.valueOf(e.getMessage()) : body;
    }

    private static String summary(ApiException e) {
        if (e == null) {
            return "no answer";
        }
        return e.getCode() == 0 ? "no answer (" + rootMessage(e) + ")" : "HTTP " + e.getCode() + " " + firstError(body(e));
    }

    private static String rootMessage(Throwable t) {
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + (t.getMessage() == null ? "" : ": " + t.getMessage());
    }

    private static void sleep(Duration pause) throws BackendException {
        try {
            Thread.sleep(pause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BackendException.Unavailable("interrupted while waiting for Slurm", e);
        }
    }
}
