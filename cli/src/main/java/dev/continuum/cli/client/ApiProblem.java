package dev.continuum.cli.client;

/** The engine refused a request and said why in a problem body. */
public final class ApiProblem extends RuntimeException {

    private final Problem problem;

    public ApiProblem(Problem problem) {
        super(problem.title() + ": " + problem.detail());
        this.problem = problem;
    }

    public Problem problem() {
        return problem;
    }
}
