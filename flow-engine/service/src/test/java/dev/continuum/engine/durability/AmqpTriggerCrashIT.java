package dev.continuum.engine.durability;

import dev.continuum.engine.support.RabbitMq;
import org.junit.jupiter.api.BeforeAll;

import java.util.Map;
import java.util.concurrent.CompletionStage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Exactly one run per AMQP event across a crash (BrokerTriggerCrash): durable messages to a queue on the machine's
 * RabbitMQ (AMQP 1.0 plugin), read by the engine's AMQP trigger channel (smallrye-amqp). RabbitMQ puts back what the
 * killed engine had not accepted, and the restarted engine's receiver, opened only once its consumer listens, takes
 * those and the rest. Skipped, saying why, without RabbitMQ's AMQP 1.0 (a failure under CONTINUUM_REQUIRE_RABBITMQ=1,
 * as in CI). The queue is deleted at the end.
 */
class AmqpTriggerCrashIT extends BrokerTriggerCrash {

    @BeforeAll
    static void needsRabbitMq() {
        var missing = RabbitMq.unavailable();
        if (RabbitMq.required()) {
            assertThat(missing).as("CONTINUUM_REQUIRE_RABBITMQ=1, but RabbitMQ cannot be used").isEmpty();
        }
        assumeTrue(missing.isEmpty(), () -> missing.orElse(""));
    }

    @Override
    String sourceType() {
        return "amqp";
    }

    @Override
    Map<String, String> engineProperties(String session) {
        return RabbitMq.engineSettings(RabbitMq.address());
    }

    @Override
    Instrument instrument(String session) {
        // the engine's receiver has declared the queue by now; the sender only names it
        RabbitMq.Sender sender = RabbitMq.senderOnceDeclared("/amq/queue/" + RabbitMq.QUEUE);
        return new Instrument() {
            @Override
            public CompletionStage<?> send(String subject, String json) {
                return sender.sendAsync(subject, json);
            }

            @Override
            public void close() {
                sender.close();
            }
        };
    }

    @Override
    void removeFromBroker(String session) {
        RabbitMq.deleteQueue();
    }

    @Override
    String broker() {
        RabbitMq.Address address = RabbitMq.address();
        return "RabbitMQ %s:%d, queue %s".formatted(address.host(), address.port(), RabbitMq.QUEUE);
    }
}
