package dev.continuum.engine.adapters.messaging;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class AckWindowTest {

    /** What the channel did, in order: "start m1", "ack m1". */
    private final List<String> log = new ArrayList<>();
    private final Map<String, AckWindow.Entry> handling = new LinkedHashMap<>();

    private void arrive(AckWindow window, String name) {
        window.open(entry -> {
            log.add("start " + name);
            handling.put(name, entry);
        }, () -> log.add("ack " + name)).forEach(Runnable::run);
    }

    private void finish(AckWindow window, String name, boolean committed) {
        window.done(handling.remove(name), committed).forEach(Runnable::run);
    }

    @Test
    void shouldAcknowledgeInArrivalOrderWhenLaterMessagesFinishFirst() {
        AckWindow window = new AckWindow(8);
        arrive(window, "m1");
        arrive(window, "m2");
        arrive(window, "m3");

        finish(window, "m3", true);
        finish(window, "m2", true);
        assertThat(log).as("all three handled side by side; no ack may pass m1's")
                .containsExactly("start m1", "start m2", "start m3");

        finish(window, "m1", true);
        assertThat(log).endsWith("ack m1", "ack m2", "ack m3");
        assertThat(window.size()).isZero();
    }

    @Test
    void shouldHandleAtMostTheCapacityAtOnceAndStartTheNextInArrivalOrder() {
        AckWindow window = new AckWindow(2);
        arrive(window, "m1");
        arrive(window, "m2");
        arrive(window, "m3");
        arrive(window, "m4");
        assertThat(log).containsExactly("start m1", "start m2");
        assertThat(window.handling()).isEqualTo(2);

        finish(window, "m2", true);
        assertThat(log).as("m2's slot goes to m3; m2's ack waits for m1").endsWith("start m3").doesNotContain("ack m2");
        finish(window, "m1", true);
        assertThat(log).endsWith("ack m1", "ack m2", "start m4");
        finish(window, "m4", true);
        finish(window, "m3", true);
        assertThat(log).endsWith("ack m3", "ack m4");
        assertThat(window.size()).isZero();
        assertThat(window.handling()).isZero();
    }

    @Test
    void shouldWithholdTheAckOfAMessageThatFailedAndAcknowledgeTheOnesAfterIt() {
        AckWindow window = new AckWindow(4);
        arrive(window, "m1");
        arrive(window, "m2");

        finish(window, "m2", true);
        finish(window, "m1", false);

        assertThat(log).as("m1 stays unacknowledged: the broker sends it again after a reconnect")
                .contains("ack m2").doesNotContain("ack m1");
        assertThat(window.size()).isZero();
    }
}
