package dev.continuum.engine.app.triggers;

import dev.continuum.engine.app.SignInRequired;
import dev.continuum.engine.app.Viewer;
import dev.continuum.engine.domain.EngineError;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.UUID;

/** Webhook triggers: signed deliveries in, and secret rotation. */
@ApplicationScoped
public class WebhookService {

    /** A secret as its owner sees it once, when made. */
    public record NewSecret(String secretId, String secret) {
        @Override
        public String toString() {
            return "NewSecret[" + secretId + ", ***]";
        }
    }

    /** The unsigned parts of a delivery, as the sender sent them. */
    public record Delivery(String deliveryId, String timestamp, String signature, byte[] body) {}

    private static final SecureRandom RANDOM = new SecureRandom();

    private final TriggerService triggers;
    private final TriggerStore store;
    private final WebhookSecrets secrets;
    private final Clock clock;

    public WebhookService(TriggerService triggers, TriggerStore store, WebhookSecrets secrets, Clock clock) {
        this.triggers = triggers;
        this.store = store;
        this.secrets = secrets;
        this.clock = clock;
    }

    /** A new signing secret; the one before stays valid until the next rotation. */
    public Uni<NewSecret> rotate(UUID triggerId, Viewer viewer) {
        return triggers.administered(triggerId, viewer).flatMap(trigger -> {
            webhookOnly(trigger);
            return newSecret(triggerId);
        });
    }

    /** The first secret of a new webhook trigger; nothing for other sources. */
    public Uni<java.util.Optional<NewSecret>> first(Trigger trigger) {
        return trigger.sourceType().equals("webhook") ? newSecret(trigger.id()).map(java.util.Optional::of)
                : Uni.createFrom().item(java.util.Optional.empty());
    }

    private Uni<NewSecret> newSecret(UUID triggerId) {
        byte[] random = new byte[32];
        RANDOM.nextBytes(random);
        NewSecret made = new NewSecret(UUID.randomUUID().toString(), "whsec_" + Base64.getUrlEncoder().withoutPadding().encodeToString(random));
        return secrets.add(triggerId, made.secretId(), made.secret(), clock.instant()).replaceWith(made);
    }

    /**
     * A signed delivery: refused (nothing recorded or started) unless signed within the tolerance; then taken in
     * under its delivery id, so a replay or retry starts no second run.
     */
    public Uni<EventOutcome> receive(UUID triggerId, Delivery delivery) {
        return store.find(triggerId).flatMap(found -> {
            // Unknown, and not a webhook trigger, look alike: a sender learns nothing without a valid signature.
            Trigger trigger = found.filter(t -> t.sourceType().equals("webhook")).orElseThrow(
                    () -> new SignInRequired("No webhook trigger " + triggerId + " takes this signature."));
            return secrets.active(triggerId).flatMap(active -> {
                WebhookSignature.refusal(active, delivery.timestamp(), delivery.signature(), delivery.body(), clock.instant())
                        .ifPresent(reason -> {
                            throw new SignInRequired("Webhook refused: " + reason + ".");
                        });
                if (delivery.deliveryId() == null || delivery.deliveryId().isBlank() || delivery.deliveryId().length() > 256) {
                    throw EngineError.invalidField("/headers/X-Continuum-Delivery", "a delivery id of 1 to 256 characters is required");
                }
                return triggers.fire(trigger, new TriggerEvent("webhook:" + delivery.deliveryId(), TriggerEvent.payloadOf(delivery.body()),
                        clock.instant()));
            });
        });
    }

    private static void webhookOnly(Trigger trigger) {
        if (!trigger.sourceType().equals("webhook")) {
            throw EngineError.invalidField("/source/type", "trigger " + trigger.id() + " is not a webhook trigger");
        }
    }
}
