package dev.continuum.provider.training.backend;

/**
 * A backend call that did not do what was asked. Messages are shown to users: no tokens, no
 * passwords, no full command lines with secrets in them.
 */
public abstract sealed class BackendException extends Exception {
    protected BackendException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The backend's service cannot be reached now (Slurm down, API server unreachable): retry later. */
    public static final class Unavailable extends BackendException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The backend will never run this request as asked; {@code field} names the request field at fault. */
    public static final class Rejected extends BackendException {
        private final String field;

        public Rejected(String field, String message) {
            super(message, null);
            this.field = field;
        }

        public String field() {
            return field;
        }
    }
}
