package dev.continuum.engine.triggers;

import dev.continuum.engine.support.Flows;
import dev.continuum.engine.support.PostgresResource;
import dev.continuum.engine.support.RabbitMq;
import dev.continuum.engine.support.RabbitMqAvailable;
import dev.continuum.engine.support.RabbitMqResource;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static dev.continuum.engine.triggers.MqttTriggerTest.awaitEvents;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

/**
 * The second broker kind by configuration alone: the engine's AMQP 1.0 channel (smallrye-amqp) against the machine's
 * RabbitMQ with rabbitmq_amqp1_0, reading a queue ({@code /queue/<name>}). Skipped, saying why, without RabbitMQ.
 */
@QuarkusTest
@ExtendWith(RabbitMqAvailable.class)
@QuarkusTestResource(value = PostgresResource.class, restrictToAnnotatedClass = false)
@QuarkusTestResource(value = RabbitMqResource.class, restrictToAnnotatedClass = true)
class AmqpTriggerTest {

    private static RabbitMq.Sender instrument;

    @BeforeAll
    static void connectInstrument() {
        var missing = RabbitMq.unavailable();
        // RabbitMqAvailable skipped the class where RabbitMQ is missing, unless it is required
        assertThat(missing).as("CONTINUUM_REQUIRE_RABBITMQ=1, but RabbitMQ cannot be used").isEmpty();
        instrument = RabbitMq.senderOnceDeclared("/amq/queue/" + RabbitMq.QUEUE);
    }

    @AfterAll
    static void disconnectInstrument() {
        if (instrument != null) {
            instrument.close();
            RabbitMq.deleteQueue();
        }
    }

    @Test
    void shouldStartOneRunPerMessageAcceptItAfterTheCommitAndStartNoneForADuplicate() {
        String prefix = "lab-" + UUID.randomUUID().toString().substring(0, 8);
        String triggerId = Triggers.create("""
                {"title":"sample changer","source":{"type":"amqp","topic":"%s/+/loaded"},"flow_id":"%s",
                 "input_template":{"sample.$":"$.sample","subject.$":"$._context.topic"}}"""
                .formatted(prefix, Flows.publish(Triggers.KEEP_INPUT)));

        instrument.send(prefix + "/changer-1/loaded", "{\"event_id\":\"sample-42\",\"sample\":\"S42\"}");
        instrument.send(prefix + "/changer-1/unloaded", "{\"event_id\":\"sample-42-out\",\"sample\":\"S42\"}");
        instrument.send(prefix + "/changer-1/loaded", "{\"event_id\":\"sample-42\",\"sample\":\"S42\",\"again\":true}");

        var events = awaitEvents(triggerId, 2);
        assertThat(events).extracting(e -> e.outcome()).containsExactlyInAnyOrder("started", "duplicate");
        assertThat(events).extracting(e -> e.dedupKey()).containsOnly("amqp:id:sample-42");
        String runId = events.stream().filter(e -> e.outcome().equals("started")).findFirst().orElseThrow().runId();
        assertThat(events).extracting(e -> e.runId()).as("the duplicate names the first delivery's run").containsOnly(runId);
        assertThat(Flows.awaitStatus(runId, Duration.ofSeconds(20), "SUCCEEDED", "FAILED")).isEqualTo("SUCCEEDED");
        Flows.run(runId).body("details.output.sample", equalTo("S42"))
                .body("details.output.subject", equalTo(prefix + "/changer-1/loaded"));
        // every message was settled as accepted once its outcome was committed: none is left in the queue, ready
        // or unacknowledged (a released one would be back as ready)
        assertThat(queueDepth()).as("messages ready + unacknowledged in " + RabbitMq.QUEUE).isEqualTo("0 0");
    }

    /** "ready unacknowledged" of the test queue, as RabbitMQ counts them. */
    private static String queueDepth() {
        try {
            Process list = new ProcessBuilder("rabbitmqctl", "-q", "list_queues", "name", "messages_ready",
                    "messages_unacknowledged").redirectErrorStream(true).start();
            String out = new String(list.getInputStream().readAllBytes());
            list.waitFor(30, TimeUnit.SECONDS);
            return out.lines().filter(line -> line.startsWith(RabbitMq.QUEUE + "\t")).findFirst()
                    .map(line -> line.substring(RabbitMq.QUEUE.length() + 1).replace('\t', ' ')).orElse("no such queue: " + out);
        } catch (IOException e) {
            return "rabbitmqctl failed: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
