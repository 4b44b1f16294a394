package dev.continuum.provider.inference;

import dev.continuum.edge.protocol.InputRef;
import dev.continuum.provider.client.FileCarrier;
import dev.continuum.paths.EndpointPath;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Moves a job's {@code input_ref} file to the site the planner chose when the file lies elsewhere: the planner's
 * "move the data and run in the datacenter" carried out by the transfer provider ({@link FileCarrier}). Each site's
 * data directory is served by a transfer endpoint — named like the site unless {@code endpointBySite} says otherwise
 * (e.g. {@code dc-pool=datacenter}) — whose root is that data directory, so {@code file:frames/f.json} is the
 * endpoint path {@code /frames/f.json} at either end. The file lands at {@code continuum-inputs/<action id>/<name>}
 * in the chosen site's data directory, and the task is sent with that {@code input_ref}.
 */
final class InputMover {

    /** Where moved inputs land, below the destination's data directory. */
    static final String LANDING = "continuum-inputs";

    /** No transfer provider: an input is read where the job runs (the file must already lie there). */
    static final InputMover NONE = new InputMover(FileCarrier.NONE, Map.of(), Duration.ofMillis(200), Clock.systemUTC());

    private final FileCarrier carrier;
    private final Map<String, String> endpointBySite;
    private final Duration poll;
    private final Clock clock;

    InputMover(FileCarrier carrier, Map<String, String> endpointBySite, Duration poll, Clock clock) {
        this.carrier = carrier;
        this.endpointBySite = Map.copyOf(endpointBySite);
        this.poll = poll;
        this.clock = clock;
    }

    boolean configured() {
        return carrier.configured();
    }

    /** A site's (or a data location's) transfer endpoint: the configured one, else the one named like it. */
    String endpointOf(String site) {
        return endpointBySite.getOrDefault(site, site);
    }

    /**
     * What moving {@code inputRef}, lying at {@code dataEndpoint} (a site or endpoint name), to {@code site} takes;
     * empty when it lies on the site's own endpoint already (or there is no file to move).
     */
    Optional<Move> moveFor(String actionId, String inputRef, String dataEndpoint, String site, String requestId) {
        if (inputRef == null || dataEndpoint == null) {
            return Optional.empty();
        }
        String from = endpointOf(dataEndpoint);
        String to = endpointOf(site);
        if (from.equals(to)) {
            return Optional.empty();
        }
        EndpointPath source = InputRef.parse(inputRef);
        String landing = LANDING + "/" + safe(actionId) + "/" + source.name();
        return Optional.of(new Move(requestId, inputRef, from, "/" + source.relative(), to, "/" + landing,
                InputRef.SCHEME + landing));
    }

    /**
     * Runs {@code move} to its end: starts the transfer (idempotent by its request id, so a retry or a restarted
     * provider finds the same transfer) and polls it until it succeeds, fails, or {@code abandoned} says nobody waits
     * for it any longer (the action ended: its deadline, a cancel). Blocking: called on a thread of its own.
     * The wall time counts from {@code startedAt} (kept in the action's details, so a restart does not reset it).
     */
    Outcome carry(Move move, String label, Instant startedAt, BooleanSupplier abandoned) {
        String transfer = null;
        String lastTrouble = null;
        while (transfer == null) {
            try {
                transfer = carrier.start(new FileCarrier.Order(move.requestId(), move.fromEndpoint(), move.sourcePath(),
                        move.toEndpoint(), move.destinationPath(), false, label));
            } catch (FileCarrier.CarryException e) {
                if (!e.retryable()) {
                    return new Outcome.Failed(null, e.getMessage()); // refused: e.g. an unknown endpoint, no access
                }
                // the transfer provider away or busy: the same request id again, until the action's deadline
                lastTrouble = e.getMessage();
                if (abandoned.getAsBoolean() || !pause()) {
                    return new Outcome.Failed(null, lastTrouble);
                }
            }
        }
        while (!abandoned.getAsBoolean()) {
            try {
                FileCarrier.Progress p = carrier.status(transfer);
                switch (p) {
                    case FileCarrier.Progress.Succeeded ok -> {
                        return new Outcome.Moved(transfer, ok.bytes(),
                                Math.max(1, Duration.between(startedAt, clock.instant()).toMillis()));
                    }
                    case FileCarrier.Progress.Failed f -> {
                        return new Outcome.Failed(transfer, f.reason());
                    }
                    case FileCarrier.Progress.Active a -> lastTrouble = null;
                }
            } catch (FileCarrier.CarryException e) {
                lastTrouble = e.getMessage(); // the transfer provider away for a moment: asked again at the next poll
            }
            if (!pause()) {
                return new Outcome.Failed(transfer, "interrupted");
            }
        }
        return new Outcome.Failed(transfer, "abandoned" + (lastTrouble == null ? "" : " (" + lastTrouble + ")"));
    }

    /** Waits one poll interval; false when interrupted. */
    private boolean pause() {
        try {
            Thread.sleep(poll.toMillis());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static String safe(String actionId) {
        return actionId.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    /** One input's move: its transfer's request id, from where to where, and the {@code input_ref} it has there. */
    record Move(String requestId, String inputRef, String fromEndpoint, String sourcePath, String toEndpoint,
                String destinationPath, String movedInputRef) {
    }

    /** How a move ended. */
    sealed interface Outcome {
        /** Moved: the transfer's action id, its bytes, and the wall time from the move's start to its end. */
        record Moved(String transferAction, long bytes, long wallMillis) implements Outcome {
        }

        /** Not moved: the transfer's action id (null when none started) and why. */
        record Failed(String transferAction, String reason) implements Outcome {
        }
    }

    /** Parses {@code site=endpoint,site=endpoint} (blank: none), as {@code --transfer-endpoints} takes it. */
    static Map<String, String> parseEndpoints(String spec) {
        if (spec == null || spec.isBlank()) {
            return Map.of();
        }
        Map<String, String> map = new java.util.LinkedHashMap<>();
        for (String raw : spec.split(",")) {
            String pair = raw.trim();
            int eq = pair.indexOf('=');
            if (eq < 1 || eq == pair.length() - 1) {
                throw new IllegalArgumentException("--transfer-endpoints takes site=endpoint pairs separated by commas, not '"
                        + pair + "'");
            }
            map.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
        }
        return map;
    }
}
