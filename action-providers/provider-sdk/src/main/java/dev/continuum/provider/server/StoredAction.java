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
 * @param releaseAt   when a finished action is forgotten; null while it runs
 */
public record StoredAction(ActionStatus status, ActionRequest request, String callbackUrl, List<ActionLogEntry> log,
                           Instant releaseAt) {

    public StoredAction {
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(request, "request");
        log = log == null ? List.of() : List.copyOf(log);
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

    public StoredAction withStatus(ActionStatus newStatus) {
        return new StoredAction(newStatus, request, callbackUrl, log, releaseAt);
    }

    public StoredAction withLogEntry(ActionLogEntry entry) {
        List<ActionLogEntry> longer = new ArrayList<>(log.size() + 1);
        longer.addAll(log);
        longer.add(entry);
        return new StoredAction(status, request, callbackUrl, longer, releaseAt);
    }

    public StoredAction withReleaseAt(Instant at) {
        return new StoredAction(status, request, callbackUrl, log, at);
    }
}
