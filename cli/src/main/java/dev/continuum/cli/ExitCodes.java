package dev.continuum.cli;

/** What {@code continuum} exits with, so scripts can branch on the outcome (documented in docs/cli.md). */
public final class ExitCodes {

    /** The command did what was asked; for {@code watch}, the run SUCCEEDED. */
    public static final int OK = 0;
    /** {@code validate}: the flow has problems. {@code watch}: the run FAILED or was ENDED (cancelled). */
    public static final int NOT_OK = 1;
    /** The command line was wrong, or a file or {@code --input} could not be read as JSON. */
    public static final int USAGE = 2;
    /** The engine refused the request (problem JSON): not found, invalid, conflict, too large. */
    public static final int REFUSED = 3;
    /** The engine could not be reached at the API address. */
    public static final int UNREACHABLE = 4;
    /** Something failed inside the CLI itself; a bug to report. */
    public static final int INTERNAL = 5;
    /** Not signed in, the sign-in ran out or was revoked, or the engine refused the token: run {@code continuum login}. */
    public static final int SIGN_IN = 6;

    private ExitCodes() {}
}
