package dev.continuum.provider.server;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.continuum.provider.api.ActionLogEntry;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.List;

/** How the durable stores write an action: one JSON document, the same in a file and in a JSONB column. */
final class StoredActionJson {

    private static final ObjectMapper JSON = ProviderJson.mapper();

    private record Persisted(@JsonProperty("status") ActionStatus status, @JsonProperty("request") ActionRequest request,
                             @JsonProperty("callback_url") String callbackUrl, @JsonProperty("log") List<ActionLogEntry> log,
                             @JsonProperty("release_at") Instant releaseAt,
                             @JsonProperty("released_at") Instant releasedAt) {}

    private StoredActionJson() {}

    static byte[] write(StoredAction a) {
        try {
            return JSON.writeValueAsBytes(new Persisted(a.status(), a.request(), a.callbackUrl(), a.log(), a.releaseAt(), a.releasedAt()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write action " + a.actionId(), e);
        }
    }

    static StoredAction read(byte[] json) {
        try {
            Persisted p = JSON.readValue(json, Persisted.class);
            return new StoredAction(p.status(), p.request(), p.callbackUrl(), p.log(), p.releaseAt(), p.releasedAt());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read a stored action", e);
        }
    }
}
