package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.placement.core.model.Link;
import dev.continuum.placement.api.client.PlannerClient;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.transfer.engine.TransferOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The planner's "move the data and run in the datacenter", carried out: a frame lies at the edge gateway
 * {@code edge-a}, which lacks the model, so the planner places the job on the datacenter pool, and the provider moves
 * the frame there through the real transfer provider (served in this JVM over HTTP, each site's data directory an
 * endpoint; the pool's named {@code datacenter}) before it sends the task. Real gateways over a real broker run the
 * real classifier with ONNX Runtime. The planner (its core in process, a configured 1 Gbit/s link from edge-a to the
 * pool) is wrapped only to read what the provider reported at completion.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class InputMoveTest {

    @TempDir
    static Path state;

    private final Map<String, PlannerClient.Measured> reported = new ConcurrentHashMap<>();
    private InputMoveRig rig;
    private EdgeCloud cloud;
    private String url;
    private String edgeA;
    private String pool;

    @BeforeAll
    void startPlatform() throws Exception {
        rig = new InputMoveRig(state);
        cloud = new EdgeCloud(rig.vertx, rig.broker.host(), rig.broker.port(), TestBrokers.freshId("provider"),
                rig.topics, rig.credentials, Clock.systemUTC());
        cloud.start().get(10, TimeUnit.SECONDS);
        edgeA = TestBrokers.freshId("edge-a");
        pool = TestBrokers.freshId("dc-pool");
        rig.gateway(edgeA, null, "edge", null);
        rig.gateway(pool, TestModels.ocrClassifier(), "datacenter", null);
        assertThat(Await.until(Duration.ofSeconds(15), () -> cloud.fleet().usable().size() == 2)).isTrue();

        // edge-a's data directory as endpoint edge-a…, the pool's as datacenter
        String transferUrl = rig.transferProvider(Map.of(edgeA, edgeA, "datacenter", pool), TransferOptions.defaults());
        InferenceProvider provider = new InferenceProvider(cloud.fleet(), cloud.dispatcher(),
                reporting(new GatewayPlanner(cloud.fleet(), cloud.dispatcher(), Clock.systemUTC(), List.of(new Link(edgeA, pool, 1.0, 5)))), Clock.systemUTC(),
                null, InputMoveRig.mover(rig.vertx, transferUrl, Map.of(pool, "datacenter")));
        url = ServedInferenceProvider.url(ServedInferenceProvider.serve(rig.vertx, provider, ProviderServerOptions.of(rig.vertx)));
    }

    /** The planner's core as the provider uses it, keeping what each completion reported. */
    private JobPlacement reporting(JobPlacement planner) {
        return new JobPlacement() {
            @Override
            public Decision place(Job job) {
                return planner.place(job);
            }

            @Override
            public Optional<Decision> placedAgain(Job job, String lost) {
                return planner.placedAgain(job, lost);
            }

            @Override
            public void completed(Job job, String site, PlannerClient.Measured measured) {
                reported.put(job.id(), measured);
                planner.completed(job, site, measured);
            }
        };
    }

    private static Path dataDir(String gateway) {
        return state.resolve(gateway).resolve("data");
    }

    @AfterAll
    void stop() throws Exception {
        cloud.close();
        rig.close();
    }

    private static ObjectNode run(String requestId, String inputRef, String endpoint, long size) {
        return InputMoveRig.run(requestId, inputRef, endpoint, size);
    }

    @Test
    void shouldMoveTheInputToTheDatacenterPoolRunItThereAndReportTheTransferTime() throws Exception {
        Path frame = Files.createDirectories(dataDir(edgeA).resolve("frames")).resolve("frame-9.json");
        Files.write(frame, Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(9, 1))));

        JsonNode started = ProviderCalls.post(url + "/run", run("r-move", "file:frames/frame-9.json", edgeA, Files.size(frame)));
        String id = started.path("action_id").asText();
        JsonNode done = ProviderCalls.awaitFinal(url + "/" + id + "/status");

        assertThat(started.path("display_status").asText()).as(started.toString()).isEqualTo("Moving input to " + pool);
        assertThat(started.at("/details/state").asText()).isEqualTo("moving input");
        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        JsonNode d = done.get("details");
        assertThat(d.get("device_id").asText()).isEqualTo(pool);
        assertThat(d.at("/output/shape").toString()).isEqualTo("[1,2]");
        // the file the pool read is the frame, byte for byte, in its own data directory
        Path moved = dataDir(pool).resolve(InputMover.LANDING).resolve(id).resolve("frame-9.json");
        assertThat(Files.readAllBytes(moved)).isEqualTo(Files.readAllBytes(frame));
        assertThat(d.at("/input_move/moved_input_ref").asText()).isEqualTo("file:" + InputMover.LANDING + "/" + id + "/frame-9.json");
        assertThat(d.at("/input_move/from_endpoint").asText()).isEqualTo(edgeA);
        assertThat(d.at("/input_move/to_endpoint").asText()).isEqualTo("datacenter");
        assertThat(d.at("/input_move/request_id").asText()).isEqualTo(id + "/input");
        assertThat(d.at("/input_move/bytes").asLong()).isEqualTo(Files.size(frame));
        long transferMillis = d.at("/input_move/transfer_ms").asLong();
        assertThat(transferMillis).isPositive();
        assertThat(d.at("/actual/input_move_ms").asLong()).isEqualTo(transferMillis);
        // the planner learns what moving the input took, beside compute and queue
        assertThat(reported.get(id).transferMillis()).isEqualTo(transferMillis);
        JsonNode log = ProviderCalls.get(url + "/" + id + "/log");
        assertThat(log.toString()).contains("MovingInput").contains("InputMoved");
    }

    @Test
    void shouldFailNamingTheInputWhenItCannotBeMoved() throws Exception {
        JsonNode started = ProviderCalls.post(url + "/run", run("r-missing", "file:frames/missing.json", edgeA, 1000));
        String id = started.path("action_id").asText();

        JsonNode done = ProviderCalls.awaitFinal(url + "/" + id + "/status");

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("FAILED");
        assertThat(done.path("display_status").asText()).contains("file:frames/missing.json").contains(pool);
        assertThat(done.at("/details/error").asText()).isEqualTo("InputTransferFailed");
        assertThat(done.at("/details/input_ref").asText()).isEqualTo("file:frames/missing.json");
        assertThat(done.at("/details/reason").asText()).isNotBlank();
        assertThat(reported).doesNotContainKey(id);
    }

    @Test
    void shouldMoveNothingWhenTheInputLiesOnTheChosenSitesEndpoint() throws Exception {
        Path frame = Files.createDirectories(dataDir(pool).resolve("frames")).resolve("frame-4.json");
        Files.write(frame, Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(4, 1))));

        JsonNode started = ProviderCalls.post(url + "/run", run("r-local", "file:frames/frame-4.json", "datacenter",
                Files.size(frame)));
        JsonNode done = ProviderCalls.awaitFinal(url + "/" + started.path("action_id").asText() + "/status");

        assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
        assertThat(done.at("/details/device_id").asText()).isEqualTo(pool);
        assertThat(done.path("details").has("input_move")).isFalse();
        assertThat(reported.get(started.path("action_id").asText()).transferMillis()).isZero();
    }
}
