package dev.continuum.provider.transfer.engine;

/** The transfer cannot finish; {@code code} is a stable word for flows to branch on. */
public final class TransferFailedException extends RuntimeException {

    private final String code;

    public TransferFailedException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    public TransferFailedException(String code, String message) {
        this(code, message, null);
    }

    public String code() {
        return code;
    }
}
