package dev.continuum.cli.client;

import java.net.ConnectException;
import java.net.http.HttpTimeoutException;

/** No HTTP answer came back at all: nothing listens at the API address, or it did not answer in time. */
public final class EngineUnreachable extends RuntimeException {

    private final String api;

    public EngineUnreachable(String api, Throwable cause) {
        super("cannot reach the engine at " + api, cause);
        this.api = api;
    }

    public String api() {
        return api;
    }

    /** One line that tells a scientist what to do next, not a stack trace. */
    public String hint() {
        return "cannot reach the engine at " + api + " (" + reason() + ") - is the engine running? "
                + "start it with ./continuum up, or point the CLI elsewhere with --api URL or CONTINUUM_API";
    }

    private String reason() {
        Throwable cause = getCause();
        if (cause instanceof ConnectException || cause != null && cause.getCause() instanceof ConnectException) {
            return "connection refused";
        }
        if (cause instanceof HttpTimeoutException) {
            return "no answer in time";
        }
        if (cause instanceof InterruptedException) {
            return "interrupted";
        }
        return cause == null || cause.getMessage() == null ? "connection failed" : cause.getMessage();
    }
}
