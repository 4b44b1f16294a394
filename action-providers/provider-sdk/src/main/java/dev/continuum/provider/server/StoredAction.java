package dev.continuum.provider.server;

import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything a provider keeps about one action.
 *
 * @param status      what {@code /status} answers
 * @param request     the request that created it (its body decides whether a repeated request_id is the same request)
 * @param callbackUrl where to push the final status, or null
 * @param log         entries for {@code /log}, oldest first
 * @param releaseAt   when a finished action is released (see {@code releasedAt}); null while it runs. Once
 *                    released, when its request_id is freed and the action forgotten
 * @param releasedAt  when the action was released, or null: a released action is gone for status, log, cancel
 *                    and release (404), but keeps its request_id bound until {@code releaseAt}, so a late repeat
 *                    of its /run answers this action instead of starting a second one
 */
public record StoredAction(ActionStatus status, ActionRequest request, String callbackUrl, List<ActionLogEntry> log,
                           Instant releaseAt, Instant releasedAt) {

    public StoredAction {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(request, "request");
        log = log == null ? List.of() : List.copyOf(log);
    }

    /** An action that has not been released. */
    public StoredAction(ActionStatus status, ActionRequest request, String callbackUrl, List<ActionLogEntry> log,
                        Instant releaseAt) {
        this(status, request, callbackUrl, log, releaseAt, null);
    }

    public String actionId() {
        return status.actionId();
    }

    public String creatorId() {
        return status.creatorId();
    }

    public boolean finished() {
        return status.status().terminal();
    }

    public boolean released() {
        return releasedAt != null;
    }

    /**
     * What is kept of this action once released at {@code at}: its final status and request (a repeated /run is
     * compared with it and answered from it) until {@code forgetAt}; the log and callback go at once.
     */
    public StoredAction releasedAt(Instant at, Instant forgetAt) {
        return new StoredAction(status, request, null, List.of(), forgetAt, at);
    }

    public StoredAction withStatus(ActionStatus newStatus) {
        return new StoredAction(newStatus, request, callbackUrl, log, releaseAt, releasedAt);
    }

    public StoredAction withLogEntry(ActionLogEntry entry) {
        List<ActionLogEntry> longer = new ArrayList<>(log.size() + 1);
        longer.addAll(log);
        longer.add(entry);
        return new StoredAction(status, request, callbackUrl, longer, releaseAt, releasedAt);
    }

    public StoredAction withReleaseAt(Instant at) {
        return new StoredAction(status, request, callbackUrl, log, at, releasedAt);
    }
}
