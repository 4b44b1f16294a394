package dev.continuum.cli.files;

/** A file or argument the CLI could not turn into JSON; the message names the file and, for syntax, line and column. */
public final class FileProblem extends RuntimeException {

    public enum Kind { UNREADABLE, NOT_JSON }

    private final Kind kind;

    public FileProblem(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
