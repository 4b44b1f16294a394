package dev.continuum.flow.expr;

/**
 * An expression could not be parsed or evaluated. The message is a plain sentence naming the
 * problem and, when known, the character position (0-based) in the expression where it occurred,
 * e.g. {@code name 'foo' is not defined at position 4}.
 */
public final class ExpressionException extends Exception {

    private final String reason;
    private final int position;

    /**
     * @param message  the problem, as a sentence without the position
     * @param position 0-based character offset into the expression, or -1 when not tied to one place
     */
    public ExpressionException(String message, int position) {
        super(position >= 0 ? message + " at position " + position : message);
        this.reason = message;
        this.position = position;
    }

    /** 0-based character offset into the expression, or -1 when the problem has no single place. */
    public int position() {
        return position;
    }

    /** The problem without the position suffix, for callers that show the position themselves. */
    public String reason() {
        return reason;
    }
}
