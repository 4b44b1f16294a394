package dev.continuum.provider.client;

/**
 * Carries files from one transfer endpoint to another — a training job's checkpoint between sites, an inference
 * job's input to the site the planner chose — through the transfer provider, called through the Action Provider API
 * ({@link TransferCarrier}). {@link #start} is idempotent by {@link Order#requestId()}, so a provider restarted in
 * the middle of a carry finds the same transfer again.
 */
public interface FileCarrier {

    /** No transfer provider configured: moves between sites are refused. */
    FileCarrier NONE = new FileCarrier() {
        @Override
        public String start(Order order) throws CarryException {
            throw new CarryException("no transfer provider is configured (--transfer-url)");
        }

        @Override
        public Progress status(String transferAction) throws CarryException {
            throw new CarryException("no transfer provider is configured (--transfer-url)");
        }
    };

    /** Starts the transfer; returns the transfer action's id. Throws when the transfer provider refused or is away. */
    String start(Order order) throws CarryException;

    /** The transfer's state; throws when the transfer provider cannot be asked now (asked again at the next poll). */
    Progress status(String transferAction) throws CarryException;

    default boolean configured() {
        return this != NONE;
    }

    /** Copy {@code sourcePath} of endpoint {@code sourceEndpoint} to {@code destinationPath} of the other, verified. */
    record Order(String requestId, String sourceEndpoint, String sourcePath, String destinationEndpoint,
                 String destinationPath, boolean recursive, String label) {
    }

    /** Where a transfer stands. */
    sealed interface Progress {
        record Active(long bytes) implements Progress {
        }

        record Succeeded(long bytes, String checksumAlgorithm) implements Progress {
        }

        record Failed(String reason) implements Progress {
        }
    }

    /** {@link #retryable()}: the transfer provider could not be reached or was busy; the same call may be sent again. */
    final class CarryException extends Exception {
        private final boolean retryable;

        public CarryException(String message) {
            this(message, false);
        }

        public CarryException(String message, boolean retryable) {
            super(message);
            this.retryable = retryable;
        }

        public boolean retryable() {
            return retryable;
        }
    }
}
