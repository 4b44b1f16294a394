package dev.continuum.engine.app.triggers;

import dev.continuum.edge.protocol.Topics;
import dev.continuum.engine.domain.triggers.BrokerMessages;
import dev.continuum.engine.domain.triggers.EventOutcome;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.engine.domain.triggers.TriggerEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Predicate;

/**
 * Takes one broker message in: every active trigger of its source type whose topic filter matches gets the event,
 * recorded once under its dedup key (and at most one run started). The returned Uni completes only when every
 * outcome is committed; the broker adapter acknowledges the message then, so a crash before that is a redelivery,
 * which the dedup key turns into the same single run.
 */
@ApplicationScoped
public class MessageIngest {

    private static final Logger LOG = Logger.getLogger(MessageIngest.class);
    /** A passing failure (database, identity provider, a claim held by a crashed handler) is retried this long. */
    static final Duration RETRY_FIRST = Duration.ofMillis(200);
    static final Duration RETRY_MAX = Duration.ofSeconds(10);
    static final int RETRIES = 30;

    private final TriggerStore store;
    private final TriggerService triggers;
    private final Clock clock;

    public MessageIngest(TriggerStore store, TriggerService triggers, Clock clock) {
        this.store = store;
        this.triggers = triggers;
        this.clock = clock;
    }

    /** The outcomes for the triggers the message was for (none when no active trigger wants its topic). */
    public Uni<List<EventOutcome>> take(String sourceType, String topic, byte[] payload) {
        var parsed = TriggerEvent.payloadOf(payload);
        TriggerEvent event = new TriggerEvent(BrokerMessages.dedupKey(sourceType, topic, payload, parsed), parsed,
                clock.instant(), topic);
        return deliver(sourceType, trigger -> Topics.matches(BrokerMessages.topicFilter(trigger), topic), event);
    }

    /**
     * Hands the event to every active trigger of this source type that {@code wants} it, one after the other, each
     * outcome committed (a passing failure retried) before the Uni completes.
     */
    public Uni<List<EventOutcome>> deliver(String sourceType, Predicate<Trigger> wants, TriggerEvent event) {
        return store.active(sourceType)
                .onItem().transformToMulti(found -> Multi.createFrom().iterable(found))
                .select().where(wants)
                .onItem().transformToUniAndConcatenate(trigger -> Uni.createFrom().deferred(() -> triggers.fire(trigger, event))
                        .onFailure().invoke(e -> LOG.debugf("trigger %s, event %s: %s (retrying)", trigger.id(), event.dedupKey(), e))
                        .onFailure().retry().withBackOff(RETRY_FIRST, RETRY_MAX).atMost(RETRIES))
                .collect().asList();
    }
}
