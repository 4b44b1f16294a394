package dev.continuum.provider.server;

/**
 * Thrown by a {@link CallerResolver} to refuse a request: 401 (who are you?), 403 (not you), or 503
 * (the identity provider cannot be reached to tell: retry).
 */
public final class CallerRejectedException extends RuntimeException {

    private final int httpStatus;

    public CallerRejectedException(int httpStatus, String detail) {
        super(detail, null, false, false);
        if (httpStatus != 401 && httpStatus != 403 && httpStatus != 503) {
            throw new IllegalArgumentException("a caller is refused with 401, 403 or 503, not " + httpStatus);
        }
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
