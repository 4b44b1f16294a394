package dev.continuum.cli.client;

/** How one issue reads on a terminal: {@code pointer: message}, the same text the API sends. */
public final class IssueText {

    private IssueText() {}

    public static String of(String pointer, String message) {
        // The empty pointer is the whole document; printed bare it would read as a stray colon.
        return pointer == null || pointer.isEmpty() ? "(document): " + message : pointer + ": " + message;
    }
}
