package dev.continuum.provider.server;

/** Thrown by a {@link CallerResolver} to refuse a request: 401 (who are you?) or 403 (not you). */
public final class CallerRejectedException extends RuntimeException {

    private final int httpStatus;

    public CallerRejectedException(int httpStatus, String detail) {
        super(detail, null, false, false);
        if (httpStatus != 401 && httpStatus != 403) {
            throw new IllegalArgumentException("a caller is refused with 401 or 403, not " + httpStatus);
        }
        this.httpStatus = httpStatus;
    }

    public int httpStatus() {
        return httpStatus;
    }
}
