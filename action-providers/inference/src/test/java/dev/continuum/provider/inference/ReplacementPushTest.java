package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.broker.Brokers;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.fleet.identity.DeviceCredentials;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.gateway.app.GatewayConfig;
import dev.continuum.edge.gateway.store.TaskSpool;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.edge.protocol.mqtt.MqttLink;
import dev.continuum.placement.api.PlannerJson;
import dev.continuum.placement.api.Replacement;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.server.ProviderServerOptions;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner service pushes a re-placement to the provider that asked for the job (issue 34): the job whose gateway
 * is lost goes to the new site as soon as it has stayed away, without the provider asking the planner; and when the
 * push never comes, the provider's slow poll of {@code GET /placements/{id}} still sends it there. The planner is a
 * recording neighbour on HTTP (it places every job on gateway A first and on B after A is lost, and counts the
 * provider's calls); the broker, the provider's link, the gateways and the model are real.
 */
class ReplacementPushTest {

    @TempDir
    Path state;

    private final Topics topics = TestBrokers.freshTopics();
    private final DeviceCredentials credentials = DeviceCredentials.fromSecret("replacement push secret", Clock.systemUTC());
    private final Vertx vertx = Vertx.vertx();
    private final List<AutoCloseable> resources = new ArrayList<>();
    /** GET /placements/{id}: the provider asking where a job runs now. */
    private final AtomicInteger polls = new AtomicInteger();
    private Brokers.EmbeddedBroker broker;
    private EdgeGateway a;
    private EdgeGateway b;
    private TcpProxy linkA;
    private EdgeCloud cloud;
    private String url;
    private final AtomicLong offlineAt = new AtomicLong();

    @BeforeEach
    void jobOnAWhoseResultCannotLeave() throws Exception {
        broker = track(Brokers.EmbeddedBroker.start(Brokers.freePort(), null));
        linkA = track(new TcpProxy(vertx, broker.host(), broker.port()));
        a = gateway("push-a", linkA.port());
        b = gateway("push-b", broker.port());
        cloud = track(new EdgeCloud(vertx, broker.host(), broker.port(), TestBrokers.freshId("push-cloud"), topics,
                credentials, Clock.systemUTC()));
        PlannerServicePlacement placement = new PlannerServicePlacement(
                new PlannerClient(URI.create(planner() + "/"), () -> null), cloud.clientId());
        cloud.onReplacement(placement::pushed);
        cloud.start().get(10, TimeUnit.SECONDS);
        url = ServedInferenceProvider.url(ServedInferenceProvider.serve(vertx,
                new InferenceProvider(cloud.fleet(), cloud.dispatcher(), placement, Clock.systemUTC()),
                ProviderServerOptions.of(vertx)));
        assertThat(Await.until(Duration.ofSeconds(20), () -> cloud.fleet().usable().size() == 2)).as("A and B online").isTrue();
        cloud.fleet().onChange(d -> {
            if (d.deviceId().equals(a.deviceId()) && !d.online()) {
                offlineAt.compareAndSet(0, System.nanoTime());
            }
        });
        linkA.muteClient(); // A runs the job, its result goes nowhere
    }

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable r : resources.reversed()) {
            r.close();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void shouldSendTheJobToTheSiteThePlannerPushedWithoutAskingItWhenItsGatewayStaysAway() throws Exception {
        String action = startOnA("pushed");
        MqttLink plannerLink = track(new MqttLink(vertx, MqttLink.Options.persistent(broker.host(), broker.port(),
                TestBrokers.freshId("planner")).withCleanSession(true)));
        plannerLink.start().get(10, TimeUnit.SECONDS);

        linkA.cut(); // the broker sends A's will; the planner, seeing it too, places the job on B and pushes that
        assertThat(Await.until(Duration.ofSeconds(10), () -> offlineAt.get() != 0)).as("A offline").isTrue();
        plannerLink.publish(topics.replacements(cloud.clientId()), PlannerJson.mapper().writeValueAsBytes(
                new Replacement(action, a.deviceId(), b.deviceId(), placedOn(b.deviceId()))), false).get(5, TimeUnit.SECONDS);
        JsonNode done = ProviderCalls.awaitFinal(url + "/" + action + "/status");
        long resent = System.nanoTime();

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/device_id").asText()).isEqualTo(b.deviceId());
        assertThat(done.at("/details/placed_again_from").asText()).isEqualTo(a.deviceId());
        assertThat(polls.get()).as("GET /placements/{id} calls").isZero();
        System.out.printf("pushed: %d planner polls; A offline -> job done on B in %d ms (REPLACE_AFTER %d ms)%n",
                polls.get(), (resent - offlineAt.get()) / 1_000_000, InferenceProvider.REPLACE_AFTER.toMillis());
    }

    @Test
    void shouldStillSendTheJobWhereThePlannerPlacedItWhenThePushIsLost() throws Exception {
        String action = startOnA("unpushed");

        linkA.cut(); // no push: the planner's link was down when it placed the job again, say
        JsonNode done = ProviderCalls.awaitFinal(url + "/" + action + "/status");
        long resent = System.nanoTime();

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/device_id").asText()).isEqualTo(b.deviceId());
        assertThat(polls.get()).as("GET /placements/{id} calls").isBetween(1, 2);
        System.out.printf("push lost: %d planner polls; A offline -> job done on B in %d ms%n", polls.get(),
                (resent - offlineAt.get()) / 1_000_000);
    }

    private String startOnA(String name) throws Exception {
        JsonNode started = ProviderCalls.post(url + "/run", ProviderCalls.classify(name, 3));
        assertThat(started.at("/details/device_id").asText()).as(started.toString()).isEqualTo(a.deviceId());
        assertThat(Await.until(Duration.ofSeconds(20), () -> a.tasksRun() == 1)).as("A ran the task").isTrue();
        return started.path("action_id").asText();
    }

    /**
     * The recording planner: {@code POST /placements} places on A; {@code GET /placements/{id}} (counted) answers
     * that the job was placed again on B; completions are taken.
     */
    private String planner() throws Exception {
        Router router = Router.router(vertx);
        router.route().handler(BodyHandler.create());
        router.post("/placements").handler(rc -> {
            String id = rc.body().asJsonObject().getString("id");
            rc.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                    .end(view(id, List.of(a.deviceId())).toString());
        });
        router.get("/placements/:id").handler(rc -> {
            polls.incrementAndGet();
            rc.response().putHeader("Content-Type", "application/json")
                    .end(view(rc.pathParam("id"), List.of(a.deviceId(), b.deviceId())).toString());
        });
        router.post("/placements/:id/completion").handler(rc -> rc.response()
                .putHeader("Content-Type", "application/json").end("{\"decisions\": []}"));
        HttpServer server = vertx.createHttpServer().requestHandler(router).listen(0)
                .toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        resources.add(() -> server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS));
        return "http://127.0.0.1:" + server.actualPort();
    }

    private static ObjectNode view(String id, List<String> sites) {
        ObjectNode view = JsonNodeFactory.instance.objectNode().put("id", id).put("kind", "inference")
                .put("status", "placed").put("site", sites.getLast());
        for (int i = 0; i < sites.size(); i++) {
            view.withArray("decisions").addObject().put("seq", i + 1).put("id", id).put("status", "placed")
                    .put("site", sites.get(i)).put("cause", i == 0 ? "request" : "inventory")
                    .set("decision", placedOn(sites.get(i)));
        }
        return view;
    }

    private static ObjectNode placedOn(String site) {
        ObjectNode decision = JsonNodeFactory.instance.objectNode().put("type", "placed");
        decision.putObject("chosen").put("site", site);
        return decision;
    }

    private EdgeGateway gateway(String name, int port) throws Exception {
        String id = TestBrokers.freshId(name);
        GatewayConfig cfg = GatewayConfig.of(id, "127.0.0.1", port, state.resolve(id), credentials.bootstrapToken(id))
                .withTopics(topics).withHeartbeat(Duration.ofMillis(300), 60)
                .withSpoolLimits(TaskSpool.Limits.defaults().withFsync(false)).withGpus(List::of);
        EdgeGateway gateway = track(new EdgeGateway(cfg, vertx, Clock.systemUTC()));
        gateway.models().deploy("ocr-cls", "1", gateway.models().install(TestModels.ocrClassifier()));
        gateway.start().get(10, TimeUnit.SECONDS);
        return gateway;
    }

    private <T extends AutoCloseable> T track(T resource) {
        resources.add(resource);
        return resource;
    }
}
