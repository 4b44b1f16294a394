package dev.continuum.engine.domain;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The run and Action state on whose behalf an engine calls a provider, sent with the start of every action so that a
 * flow of another Continuum engine can link its child run to the parent (as far as that engine can know it: the
 * parent run lives elsewhere). Providers that do not know the headers ignore them; the run id and state are no
 * secret, the request_id already carries both.
 */
public record CallingRun(UUID runId, String state) {

    public static final String RUN_HEADER = "Continuum-Parent-Run";
    public static final String STATE_HEADER = "Continuum-Parent-State";

    /** {@code headers} and this run's two. */
    public Map<String, String> addTo(Map<String, String> headers) {
        Map<String, String> all = new LinkedHashMap<>(headers);
        all.put(RUN_HEADER, runId.toString());
        all.put(STATE_HEADER, state);
        return all;
    }

    /** The calling run a request names, if it names one; a run header that is not a run id is refused naming it. */
    public static Optional<CallingRun> of(String runHeader, String stateHeader) {
        if (runHeader == null || runHeader.isBlank()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new CallingRun(UUID.fromString(runHeader.trim()), stateHeader));
        } catch (IllegalArgumentException e) {
            throw EngineError.invalidField("/headers/" + RUN_HEADER, "the calling run's id, a UUID");
        }
    }
}
