package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.gateway.app.EdgeGateway;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.gateway.testing.TcpProxy;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.placement.core.model.Link;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.transfer.engine.TransferOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The site a job's input was moved to is lost before the job finishes: the pool the planner chose goes offline (its
 * broker connection cut; the last will marks it), the planner places the job on the other pool, and the provider
 * moves the input again — from where the job said it lies, under the request id {@code <action id>/input/<site>} —
 * before it sends the task there. Real gateways over a real broker, the real transfer provider, ONNX Runtime.
 */
class InputMoveSiteLossTest {

    @TempDir
    Path state;

    private InputMoveRig rig;
    private EdgeCloud cloud;

    @AfterEach
    void stop() throws Exception {
        if (cloud != null) {
            cloud.close();
        }
        rig.close();
    }

    private static String state(String statusUrl) {
        try {
            return ProviderCalls.get(statusUrl).at("/details/state").asText();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void shouldMoveTheInputAgainToTheSiteTheJobIsPlacedOnWhenItsFirstSiteIsLost() throws Exception {
        rig = new InputMoveRig(state);
        String edgeA = TestBrokers.freshId("edge-a");
        String pool1 = TestBrokers.freshId("dc-pool-1");
        String pool2 = TestBrokers.freshId("dc-pool-2");
        TcpProxy pool1Link = rig.proxy();
        rig.gateway(edgeA, null, "edge", null);
        EdgeGateway first = rig.gateway(pool1, TestModels.ocrClassifier(), "datacenter", pool1Link);
        EdgeGateway second = rig.gateway(pool2, TestModels.ocrClassifier(), "datacenter", null);
        cloud = new EdgeCloud(rig.vertx, rig.broker.host(), rig.broker.port(), TestBrokers.freshId("site-loss"), rig.topics,
                rig.credentials, Clock.systemUTC());
        cloud.start().get(10, TimeUnit.SECONDS);
        assertThat(Await.until(Duration.ofSeconds(15), () -> cloud.fleet().usable().size() == 3)).isTrue();
        // pool-1's data directory is the endpoint "datacenter", pool-2's is named like it; pool-1 is nearer edge-a
        String transferUrl = rig.transferProvider(Map.of(edgeA, edgeA, "datacenter", pool1, pool2, pool2),
                TransferOptions.defaults());
        InferenceProvider provider = new InferenceProvider(cloud.fleet(), cloud.dispatcher(),
                new GatewayPlanner(cloud.fleet(), cloud.dispatcher(), Clock.systemUTC(), List.of(new Link(edgeA, pool1, 1.0, 5), new Link(edgeA, pool2, 1.0, 50))),
                Clock.systemUTC(), null, InputMoveRig.mover(rig.vertx, transferUrl, Map.of(pool1, "datacenter")));
        String url = ServedInferenceProvider.url(ServedInferenceProvider.serve(rig.vertx, provider,
                ProviderServerOptions.of(rig.vertx)));
        Path frame = Files.createDirectories(rig.dataDir(edgeA).resolve("frames")).resolve("frame-7.json");
        Files.write(frame, Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(7, 1))));

        pool1Link.blackhole(); // pool-1 still looks online, but the task sent there gets no answer
        JsonNode started = ProviderCalls.post(url + "/run",
                InputMoveRig.run("r-site-loss", "file:frames/frame-7.json", edgeA, Files.size(frame)));
        String id = started.path("action_id").asText();
        assertThat(started.path("display_status").asText()).as(started.toString()).isEqualTo("Moving input to " + pool1);
        String statusUrl = url + "/" + id + "/status";
        assertThat(Await.until(Duration.ofSeconds(30), () -> state(statusUrl).equals("dispatched")))
                .as("the input moved to pool-1 and the task sent there").isTrue();
        Thread.sleep(200); // paces the scenario: the site is lost a moment after the task reached it
        pool1Link.cut(); // pool-1 is lost: the broker publishes its last will

        JsonNode done = ProviderCalls.awaitFinal(statusUrl);

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode d = done.get("details");
        assertThat(d.get("device_id").asText()).isEqualTo(pool2);
        assertThat(d.get("placed_again_from").asText()).isEqualTo(pool1);
        assertThat(d.at("/output/shape").toString()).isEqualTo("[1,2]");
        // moved again, from where the job said its input lies, under a request id of its own
        assertThat(d.at("/input_move/request_id").asText()).isEqualTo(id + "/input/" + pool2);
        assertThat(d.at("/input_move/from_endpoint").asText()).isEqualTo(edgeA);
        assertThat(d.at("/input_move/to_endpoint").asText()).isEqualTo(pool2);
        assertThat(d.at("/input_move/transfer_ms").asLong()).isPositive();
        Path moved = rig.dataDir(pool2).resolve(InputMover.LANDING).resolve(id).resolve("frame-7.json");
        assertThat(Files.readAllBytes(moved)).isEqualTo(Files.readAllBytes(frame));
        assertThat(d.at("/input_move/moved_input_ref").asText())
                .isEqualTo("file:" + InputMover.LANDING + "/" + id + "/frame-7.json");
        assertThat(rig.transfersCreated.get()).as("transfers: to pool-1, then to pool-2").isEqualTo(2);
        assertThat(first.tasksRun()).isZero();
        assertThat(second.tasksRun()).isEqualTo(1);
        assertThat(ProviderCalls.get(url + "/" + id + "/log").toString()).contains("PlacedAgain");
    }
}
