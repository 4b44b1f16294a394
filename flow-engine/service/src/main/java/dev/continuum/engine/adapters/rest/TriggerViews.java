package dev.continuum.engine.adapters.rest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.app.triggers.TriggerStore.EventRecord;
import dev.continuum.engine.app.triggers.WebhookService;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.Trigger;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

/** The JSON documents of /triggers (snake_case, absent fields left out). */
final class TriggerViews {

    private TriggerViews() {}

    record TriggerView(UUID id, String owner, String title, JsonNode source, UUID flowId, Integer flowVersion, String filter,
                       JsonNode inputTemplate, String runLabel, List<String> runTags, List<String> administrators,
                       List<String> viewers, String runAs, String status, int consecutiveFailures, String userRole,
                       Webhook webhook, Instant createdAt, Instant updatedAt) {
        static TriggerView of(Trigger t, Viewer viewer) {
            return of(t, viewer, null);
        }

        /** {@code secret}: shown once, in the answer that made it. */
        static TriggerView of(Trigger t, Viewer viewer, WebhookService.NewSecret secret) {
            var spec = t.spec();
            String role = !viewer.restricted() || t.ownerId().equals(viewer.id()) ? "owner"
                    : t.administeredBy(viewer.id()) ? "administrator" : "viewer";
            return new TriggerView(t.id(), t.ownerId(), spec.title(), spec.source(), spec.flowId(), spec.flowVersion(),
                    spec.filter(), spec.inputTemplate(), spec.runLabel(), spec.runTags(), spec.administrators(), spec.viewers(),
                    spec.runAs(), t.status().name().toLowerCase(), t.consecutiveFailures(), role,
                    t.sourceType().equals("webhook") ? Webhook.of(t, secret) : null, t.createdAt(), t.updatedAt());
        }
    }

    /** Where a webhook trigger takes deliveries; the secret only when just made. */
    record Webhook(String path, String secretId, String secret) {
        static Webhook of(Trigger t, WebhookService.NewSecret secret) {
            return new Webhook("/triggers/" + t.id() + "/webhook", secret == null ? null : secret.secretId(),
                    secret == null ? null : secret.secret());
        }

        @Override
        public String toString() {
            return "Webhook[" + path + ", ***]";
        }
    }

    record TriggerList(List<TriggerView> triggers) {}

    record EventView(long id, String dedupKey, String outcome, UUID runId, String reason, Instant receivedAt, JsonNode event) {
        static EventView of(EventRecord e) {
            return new EventView(e.id(), e.dedupKey(), e.outcome(), e.runId(), e.reason(), e.receivedAt(), e.payload());
        }
    }

    /** A marker-paged page of events, with the paging fields of GET /runs. */
    record EventList(List<EventView> events, int limit, boolean hasNextPage, String marker) {}

    record Outcomes(List<Outcome> outcomes) {}

    /** What one delivery or test fire did. */
    record Outcome(String outcome, UUID runId, String reason, String firstOutcome, JsonNode input) {
        static Outcome of(EventOutcome outcome) {
            return switch (outcome) {
                case EventOutcome.Started s -> new Outcome(s.name(), s.runId(), null, null, null);
                case EventOutcome.FilteredOut f -> new Outcome(f.name(), null, f.reason(), null, null);
                case EventOutcome.Rejected r -> new Outcome(r.name(), null, r.reason(), null, null);
                case EventOutcome.Duplicate d -> new Outcome(d.name(), d.runId(), null, d.firstOutcome(), null);
                case EventOutcome.DryRun d -> new Outcome(d.name(), null, null, null, d.input());
            };
        }
    }
}
