package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway that goes offline (its last will) while it holds jobs: it keeps them in its spool and runs them whether or
 * not it is online. The provider moves them to another gateway only once it has stayed away
 * {@link InferenceProvider#REPLACE_AFTER}; one that is back sooner keeps them, so each runs once (the broker row of
 * docs/reliability.md: a broker that stops sends every gateway's will). Gateway A holds the jobs: it has the model
 * and B has not yet; A ran them, but its results go nowhere (its link's uplink is mute) when its link is cut. (A 60 s
 * keep-alive: the mute, pings included, ends before the broker could time A out by itself.)
 */
class GatewayAwayTest {

    private static final int JOBS = 4;

    @TempDir
    Path state;

    private final Topics topics = TestBrokers.freshTopics();
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret("gateway away secret", Clock.systemUTC());
    private final Vertx vertx = Vertx.vertx();
    private final List<AutoCloseable> resources = new ArrayList<>();
    private EdgeGateway a;
    private EdgeGateway b;
    private TcpProxy linkA;
    private EdgeCloud cloud;
    private String url;
    private final List<String> actions = new ArrayList<>();

    @BeforeEach
    void jobsRunOnAWhoseResultsCannotLeave() throws Exception {
        Brokers.EmbeddedBroker broker = Brokers.EmbeddedBroker.start(Brokers.freePort(), null);
        resources.add(broker);
        linkA = track(new TcpProxy(vertx, broker.host(), broker.port()));
        a = gateway("away-a", linkA.port());
        b = gateway("away-b", broker.port());
        cloud = new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("away-cloud"), topics, credentials,
                Clock.systemUTC());
        resources.add(cloud);
        cloud.start().get(10, TimeUnit.SECONDS);
        url = ServedInferenceProvider.url(ServedInferenceProvider.serve(vertx, cloud, ProviderServerOptions.of(vertx)));
        assertThat(Await.until(Duration.ofSeconds(20), () -> cloud.fleet().usable().size() == 2 && hasModel(a))).isTrue();

        linkA.muteClient();
        for (int i = 0; i < JOBS; i++) {
            JsonNode started = ProviderCalls.post(url + "/run", ProviderCalls.classify("away-" + i, i));
            assertThat(started.at("/details/device_id").asText()).as(started.toString()).isEqualTo(a.deviceId());
            actions.add(started.path("action_id").asText());
        }
        assertThat(Await.until(Duration.ofSeconds(20), () -> a.tasksRun() == JOBS)).as("tasks A ran").isTrue();
        b.models().deploy("ocr-cls", "1", b.models().install(TestModels.ocrClassifier()));
        assertThat(Await.until(Duration.ofSeconds(20), () -> hasModel(b))).as("B can take the jobs").isTrue();
        assertThat(statuses()).as("nothing came back from A").allSatisfy(s -> assertThat(s.path("status").asText())
                .isEqualTo("ACTIVE"));
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldLeaveTheJobsOnAGatewayThatComesBackSoonSoEachRunsOnce() throws Exception {
        linkA.cut(); // the broker sees A vanish and sends its will
        assertThat(Await.until(Duration.ofSeconds(10), () -> !usable(a))).as("A offline").isTrue();
        linkA.heal();

        List<JsonNode> done = awaitFinal();

        assertThat(done).allSatisfy(s -> {
            assertThat(s.path("status").asText()).as(s.toString()).isEqualTo("SUCCEEDED");
            assertThat(s.at("/details/device_id").asText()).isEqualTo(a.deviceId());
            assertThat(s.at("/details/placed_again_from").isMissingNode()).isTrue();
        });
        assertThat(a.tasksRun() + b.tasksRun()).as("runs of the %d tasks", JOBS).isEqualTo(JOBS);
    }

    @Test
    void shouldPlaceTheJobsElsewhereOnlyAfterTheirGatewayStayedAwayAndTakeOneResultEach() throws Exception {
        AtomicLong offlineAt = new AtomicLong();
        cloud.fleet().onChange(d -> {
            if (d.deviceId().equals(a.deviceId()) && !d.online()) {
                offlineAt.compareAndSet(0, System.nanoTime());
            }
        });
        long cut = System.nanoTime();
        linkA.cut();

        List<JsonNode> done = awaitFinal();
        Duration waited = Duration.ofNanos(System.nanoTime() - offlineAt.get());

        assertThat(done).allSatisfy(s -> {
            assertThat(s.path("status").asText()).as(s.toString()).isEqualTo("SUCCEEDED");
            assertThat(s.at("/details/device_id").asText()).isEqualTo(b.deviceId());
            assertThat(s.at("/details/placed_again_from").asText()).isEqualTo(a.deviceId());
        });
        assertThat(waited).as("A was given time to come back (since the provider saw it go, %d ms after the cut)",
                (offlineAt.get() - cut) / 1_000_000).isGreaterThanOrEqualTo(InferenceProvider.REPLACE_AFTER);
        assertThat(b.tasksRun()).isEqualTo(JOBS);

        linkA.heal(); // A comes back late with the results it kept: the provider has taken one result per job
        assertThat(Await.until(Duration.ofSeconds(30), () -> a.undeliveredResults() == 0 && usable(a)))
                .as("A back (%s, usable %s) with its results delivered (%d left)", a.connected(), usable(a),
                        a.undeliveredResults()).isTrue();
        assertThat(statuses()).isEqualTo(done);
    }

    private EdgeGateway gateway(String name, int port) throws Exception {
        String id = TestBrokers.freshId(name);
        GatewayConfig cfg = GatewayConfig.of(id, "127.0.0.1", port, state.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics).withHeartbeat(Duration.ofMillis(300), 60)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false)).withGpus(List::of)
                .withLinkAckTimeout(Duration.ofSeconds(5)); // A's results lost with its mute link go again after this
        EdgeGateway gateway = track(new EdgeGateway(cfg, vertx, Clock.systemUTC()));
        if (name.equals("away-a")) {
            gateway.models().deploy("ocr-cls", "1", gateway.models().install(TestModels.ocrClassifier()));
        }
        gateway.start().get(10, TimeUnit.SECONDS);
        return gateway;
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }

    private boolean usable(EdgeGateway gateway) {
        return cloud.fleet().usable().stream().anyMatch(d -> d.deviceId().equals(gateway.deviceId()));
    }

    private boolean hasModel(EdgeGateway gateway) {
        return cloud.fleet().device(gateway.deviceId()).map(d -> d.heartbeat() != null
                && d.heartbeat().loadedModels().stream().anyMatch(m -> m.answersTo("ocr-cls@1"))).orElse(false);
    }

    private List<JsonNode> statuses() throws Exception {
        List<JsonNode> all = new ArrayList<>();
        for (String id : actions) {
            all.add(ProviderCalls.get(url + "/" + id + "/status"));
        }
        return all;
    }

    private List<JsonNode> awaitFinal() throws Exception {
        List<JsonNode> all = new ArrayList<>();
        for (String id : actions) {
            all.add(ProviderCalls.awaitFinal(url + "/" + id + "/status"));
        }
        return all;
    }
}
