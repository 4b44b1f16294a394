package dev.continuum.provider.server;

/**
 * Thrown by {@link ActionProvider#start} when the body passes the input schema but still cannot be
 * run (a check a schema cannot express). The caller gets 400 naming {@code pointer}; no action is
 * kept, so the same {@code request_id} may be used again with a corrected body.
 */
public final class InvalidInputException extends RuntimeException {

    private final String pointer;

    /** @param pointer JSON pointer into the request document, e.g. {@code /body/url} */
    public InvalidInputException(String pointer, String message) {
        super(message, null, false, false);
        this.pointer = pointer;
    }

    public String pointer() {
        return pointer;
    }
}
