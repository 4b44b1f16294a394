package dev.continuum.engine.app;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

/**
 * What the owner of a run is told when it reaches a status its activity_notification_policy names. Deliberately
 * small: no input, output, cause or token, so nothing secret can travel in a notice (the run's log has the rest).
 *
 * @param error the error name of a FAILED run (e.g. ActionFailedException), never its cause
 * @param email where an e-mail notice goes; empty when the owner's address is unknown
 */
public record RunNotice(UUID runId, UUID flowId, int flowVersion, String owner, String label, String status,
                        String error, Instant at, Optional<String> email) {

    /** The command that shows the run; notices point people to it rather than to an API URL that needs a token. */
    public String watchCommand() {
        return "continuum watch " + runId;
    }
}
