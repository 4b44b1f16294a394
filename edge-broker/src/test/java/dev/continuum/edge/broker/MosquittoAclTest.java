package dev.continuum.edge.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.awaitility.Awaitility.await;

import dev.continuum.edge.broker.testing.OwnMosquitto;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.edge.protocol.Topics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator's own Mosquitto (not the machine's shared one: a broker of the test's own, on a free port) closed as
 * docs/operations.md says: logins from a {@code mosquitto_passwd} file, {@link MosquittoAcl}'s per-device patterns.
 * A gateway may use its own topics and is refused another gateway's.
 */
class MosquittoAclTest {

    private static final Topics TOPICS = new Topics("acl-test");
    private static final String OPERATOR_PASSWORD = "operator-test-password";

    @TempDir
    static Path dir;
    private static OwnMosquitto mosquitto;
    private static int port;

    @BeforeAll
    static void startMosquitto() throws Exception {
        assumeTrue(OwnMosquitto.installed() && Files.isExecutable(Path.of("/usr/bin/mosquitto_passwd")),
                "needs Debian's mosquitto (apt-get install mosquitto)");
        Path passwd = dir.resolve("continuum.passwd");
        passwd(passwd, "-c", BrokerAccess.OPERATOR, OPERATOR_PASSWORD);
        passwd(passwd, null, "gw-a", "gw-a-password");
        passwd(passwd, null, "gw-b", "gw-b-password");
        Path acl = Files.writeString(dir.resolve("continuum.acl"), MosquittoAcl.render(TOPICS));
        mosquitto = OwnMosquitto.start(dir, """
                allow_anonymous false
                password_file %s
                acl_file %s
                """.formatted(passwd, acl));
        port = mosquitto.port();
    }

    @AfterAll
    static void stopMosquitto() throws Exception {
        if (mosquitto != null) {
            mosquitto.close();
        }
    }

    @Test
    void shouldDeliverAGatewaysOwnTopicsAndDropWhatItPublishesUnderAnothersPrefix() throws Exception {
        try (MqttLink operator = link("cloud", BrokerAccess.OPERATOR, OPERATOR_PASSWORD);
             MqttLink gwA = link("gw-a", "gw-a", "gw-a-password")) {
            List<String> seen = new CopyOnWriteArrayList<>();
            operator.subscribe(TOPICS.root() + "/devices/#", 1, m -> {
                seen.add(m.topic());
                m.ack();
            });
            operator.whenConnected().get(10, TimeUnit.SECONDS);

            // subscribe() has no SUBACK to wait for: the pair is sent again until the subscription is in place
            boolean arrived = false;
            for (int attempt = 0; attempt < 5 && !arrived; attempt++) {
                gwA.publish(TOPICS.results("gw-b"), bytes("forged result"), false).get(10, TimeUnit.SECONDS);
                gwA.publish(TOPICS.results("gw-a"), bytes("own result"), false).get(10, TimeUnit.SECONDS);
                arrived = until(() -> seen.contains(TOPICS.results("gw-a")));
            }

            assertThat(arrived).as("its own result arrives").isTrue();
            // the broker forwards one client's messages in order: the forged one, sent first, would be here by now
            assertThat(seen).doesNotContain(TOPICS.results("gw-b"));
        }
    }

    @Test
    void shouldRefuseAGatewayReadingAnotherGatewaysTasks() throws Exception {
        try (MqttLink operator = link("cloud-2", BrokerAccess.OPERATOR, OPERATOR_PASSWORD);
             MqttLink gwA = link("gw-a", "gw-a", "gw-a-password");
             MqttLink gwB = link("gw-b", "gw-b", "gw-b-password")) {
            List<String> toA = new CopyOnWriteArrayList<>();
            List<String> toB = new CopyOnWriteArrayList<>();
            gwA.subscribe(TOPICS.tasks("gw-b"), 1, m -> { toA.add(m.topic()); m.ack(); });
            gwA.subscribe(TOPICS.tasks("gw-a"), 1, m -> { toA.add(m.topic()); m.ack(); });
            gwB.subscribe(TOPICS.tasks("gw-b"), 1, m -> { toB.add(m.topic()); m.ack(); });
            gwA.whenConnected().get(10, TimeUnit.SECONDS);
            gwB.whenConnected().get(10, TimeUnit.SECONDS);
            operator.whenConnected().get(10, TimeUnit.SECONDS);

            // as above: no SUBACK to wait for, so the tasks are sent again until both subscriptions are in place
            // (CI's bare path once published before gw-b's subscription had reached the broker)
            boolean arrived = false;
            for (int attempt = 0; attempt < 5 && !arrived; attempt++) {
                operator.publish(TOPICS.tasks("gw-b"), bytes("task for b"), false).get(10, TimeUnit.SECONDS);
                operator.publish(TOPICS.tasks("gw-a"), bytes("task for a"), false).get(10, TimeUnit.SECONDS);
                arrived = until(() -> toB.contains(TOPICS.tasks("gw-b")) && toA.contains(TOPICS.tasks("gw-a")));
            }

            assertThat(toB).as("gw-b gets its task").contains(TOPICS.tasks("gw-b"));
            assertThat(toA).as("gw-a gets its own").contains(TOPICS.tasks("gw-a"));
            assertThat(toA).as("gw-a never sees gw-b's task").doesNotContain(TOPICS.tasks("gw-b"));
        }
    }

    /**
     * The planner's re-placement pushes (issue 34) are cloud to cloud: a gateway can neither read a provider's nor
     * forge one. The pushes go to a provider's topic while a gateway subscribed to it, its forged one before the
     * provider's own link's marker: only the marker arrives.
     */
    @Test
    void shouldKeepGatewaysOffThePlannersRePlacementPushes() throws Exception {
        String pushes = TOPICS.replacements("continuum-inference");
        try (MqttLink planner = link("planner", BrokerAccess.OPERATOR, OPERATOR_PASSWORD);
             MqttLink provider = link("continuum-inference", BrokerAccess.OPERATOR, OPERATOR_PASSWORD);
             MqttLink gwA = link("gw-a", "gw-a", "gw-a-password")) {
            List<String> toProvider = new CopyOnWriteArrayList<>();
            List<String> toGateway = new CopyOnWriteArrayList<>();
            provider.subscribe(pushes, 1, m -> { toProvider.add(new String(m.payload(), StandardCharsets.UTF_8)); m.ack(); });
            gwA.subscribe(pushes, 1, m -> { toGateway.add(m.topic()); m.ack(); });
            gwA.subscribe(TOPICS.root() + "/placement/#", 1, m -> { toGateway.add(m.topic()); m.ack(); });
            provider.whenConnected().get(10, TimeUnit.SECONDS);
            gwA.whenConnected().get(10, TimeUnit.SECONDS);

            boolean arrived = false;
            for (int attempt = 0; attempt < 5 && !arrived; attempt++) {
                gwA.publish(pushes, bytes("forged"), false).get(10, TimeUnit.SECONDS);
                planner.publish(pushes, bytes("from the planner"), false).get(10, TimeUnit.SECONDS);
                arrived = until(() -> toProvider.contains("from the planner"));
            }

            assertThat(arrived).as("the planner's push reaches the provider").isTrue();
            assertThat(toProvider).as("the gateway's forgery is dropped").doesNotContain("forged");
            assertThat(toGateway).as("the gateway reads no push").isEmpty();
        }
    }

    @Test
    void shouldRefuseAWrongPasswordAndAnonymousClients() throws Exception {
        for (MqttLink.Login login : new MqttLink.Login[] {MqttLink.Login.of("gw-a", "not-its-password"), null}) {
            CompletableFuture<Void> refused = new CompletableFuture<>();
            MqttLink link = MqttLink.standalone(MqttLink.Options.persistent("127.0.0.1", port, "gw-a")
                    .withCleanSession(true).withLogin(login));
            link.onConnection(new MqttLink.ConnectionListener() {
                @Override public void connected(boolean sessionPresent) { }
                @Override public void refused() { refused.complete(null); }
            });
            try (link) {
                link.start();
                refused.get(10, TimeUnit.SECONDS);
                assertThat(link.connected()).isFalse();
            }
        }
    }

    private static MqttLink link(String clientId, String user, String password) throws Exception {
        // clean sessions: nothing stays behind in the broker (which is the test's own anyway)
        MqttLink link = MqttLink.standalone(MqttLink.Options.persistent("127.0.0.1", port, clientId)
                .withCleanSession(true).withLogin(MqttLink.Login.of(user, password)));
        link.start().get(10, TimeUnit.SECONDS);
        return link;
    }

    private static void passwd(Path file, String create, String user, String password) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("/usr/bin/mosquitto_passwd"));
        if (create != null) {
            cmd.add(create);
        }
        cmd.addAll(List.of("-b", file.toString(), user, password));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Whether the condition holds within 5 s: false sends the messages again (no SUBACK to wait for). */
    private static boolean until(java.util.function.BooleanSupplier condition) {
        try {
            await("the messages to arrive").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(condition::getAsBoolean);
            return true;
        } catch (ConditionTimeoutException notYet) {
            return false;
        }
    }
}
