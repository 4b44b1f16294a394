package dev.continuum.cli;

/** An option value the CLI cannot work with, found after parsing; exits like any other command-line mistake. */
public final class UsageProblem extends RuntimeException {

    public UsageProblem(String message) {
        super(message);
    }
}
