package dev.continuum.provider.internal;

import dev.continuum.provider.api.Problem;

/** Carries a problem document to the HTTP layer; no stack trace, as it is an answer, not a bug. */
public final class ProblemException extends RuntimeException {

    private final transient Problem problem;

    ProblemException(Problem problem) {
        super(problem.detail() == null ? problem.title() : problem.detail(), null, false, false);
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
