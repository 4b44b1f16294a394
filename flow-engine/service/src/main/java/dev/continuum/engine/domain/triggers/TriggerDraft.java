package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.UUID;

/**
 * What a trigger's owner or administrator writes (create and replace); checked by {@link TriggerRules}.
 *
 * @param source        {@code {"type": "webhook" | "api" | "timer" | ...}} and the source's own settings
 * @param flowVersion   null: each event starts the flow's latest version
 * @param filter        a {@code .=}-style expression over the event; null lets every event through
 * @param inputTemplate the run input: a Parameters template whose {@code .$} paths and {@code .=} expressions read the event
 * @param runAs         {@code owner} (default: the owner's delegated grant) or {@code service_account} (the engine's
 *                      trigger service account; only an administrator may bind it)
 */
public record TriggerDraft(String title, JsonNode source, UUID flowId, Integer flowVersion, String filter,
                           JsonNode inputTemplate, String runLabel, List<String> runTags, List<String> administrators,
                           List<String> viewers, String runAs) {

    public static final String PUBLIC = "public";
    public static final String ALL_AUTHENTICATED = "all_authenticated_users";
    public static final String RUN_AS_OWNER = "owner";
    public static final String RUN_AS_SERVICE_ACCOUNT = "service_account";

    public TriggerDraft {
        runTags = runTags == null ? List.of() : List.copyOf(runTags);
        administrators = administrators == null ? List.of() : List.copyOf(administrators);
        viewers = viewers == null ? List.of() : List.copyOf(viewers);
        runAs = runAs == null ? RUN_AS_OWNER : runAs;
    }

    public boolean runsAsServiceAccount() {
        return RUN_AS_SERVICE_ACCOUNT.equals(runAs);
    }

    static boolean member(List<String> principals, String user) {
        return principals.contains(user) || principals.contains(PUBLIC) || principals.contains(ALL_AUTHENTICATED);
    }
}
