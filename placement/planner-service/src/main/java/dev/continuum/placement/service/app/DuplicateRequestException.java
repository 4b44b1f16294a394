package dev.continuum.placement.service.app;

/** A request id the log already has: ids name jobs, so a second request may not reuse one. */
public final class DuplicateRequestException extends RuntimeException {
    public DuplicateRequestException(String requestId) {
        super("a placement request with id " + requestId + " exists already");
    }
}
