package dev.continuum.provider.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.protocol.Wire;
import dev.continuum.edge.gateway.testing.Await;
import dev.continuum.edge.broker.testing.TestBrokers;
import dev.continuum.edge.gateway.testing.TestModels;
import dev.continuum.placement.core.model.Link;
import dev.continuum.provider.server.PostgresActionStore;
import dev.continuum.provider.server.ProviderServerOptions;
import dev.continuum.provider.testing.TestDatabase;
import dev.continuum.provider.transfer.engine.TransferOptions;
import io.vertx.core.Vertx;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The inference provider stops while it moves a job's input and a new instance takes the action up from PostgreSQL:
 * the move goes on under the same request id, the transfer provider copies the file once, and the job succeeds on the
 * datacenter pool with the file byte for byte. The transfer provider is capped at 5 MiB/s, so the 30 MiB input takes
 * about six seconds to move; the first instance is closed (its SDK stop hook) a second into the move.
 */
class InputMoveRestartTest {

    private static final int INPUT_BYTES = 30 * 1024 * 1024;

    @TempDir
    Path state;

    private TestDatabase db;
    private InputMoveRig rig;
    private String edgeA;
    private String pool;
    private String transferUrl;

    /** One provider "process": its own Vert.x, MQTT session and HTTP port; actions in the shared PostgreSQL table. */
    private final class Instance implements AutoCloseable {
        final Vertx vertx = Vertx.vertx();
        final PostgresActionStore store = new PostgresActionStore(db.url(), "postgres", "", "inference_actions",
                "inference-1", Duration.ofSeconds(2));
        final EdgeCloud cloud;
        final ServedInferenceProvider.Served served;
        boolean stopped;

        Instance() throws Exception {
            cloud = new EdgeCloud(vertx, rig.broker.host(), rig.broker.port(), TestBrokers.freshId("move-restart"),
                    rig.topics, rig.credentials, Clock.systemUTC());
            cloud.start().get(10, TimeUnit.SECONDS);
            assertThat(Await.until(Duration.ofSeconds(15), () -> cloud.fleet().usable().size() == 2)).isTrue();
            InferenceProvider provider = new InferenceProvider(cloud.fleet(), cloud.dispatcher(),
                    new GatewayPlanner(cloud.fleet(), cloud.dispatcher(), Clock.systemUTC(), List.of(new Link(edgeA, pool, 1.0, 5))), Clock.systemUTC(), null,
                    InputMoveRig.mover(vertx, transferUrl, Map.of(pool, "datacenter")));
            served = ServedInferenceProvider.mount(vertx, provider, ProviderServerOptions.of(vertx).withStore(store));
        }

        String url() {
            return served.url();
        }

        /**
         * The provider stops as its process's shutdown does it: the provider first (the SDK's stop hook), then its HTTP
         * server and MQTT session. Its Vert.x and database pool stay up — in a stopping process they live until the
         * JVM exits, and here until the test ends — so whatever of its work were still running could still reach the
         * transfer provider and write to the shared table.
         */
        void stop() throws Exception {
            if (stopped) {
                return;
            }
            stopped = true;
            served.provider().close();
            served.server().close();
            cloud.close();
        }

        @Override
        public void close() throws Exception {
            stop();
            vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            store.close();
        }
    }

    @BeforeEach
    void platform() throws Exception {
        db = TestDatabase.create("inference_move_");
        rig = new InputMoveRig(state);
        edgeA = TestBrokers.freshId("edge-a");
        pool = TestBrokers.freshId("dc-pool");
        rig.gateway(edgeA, null, "edge", null);
        rig.gateway(pool, TestModels.ocrClassifier(), "datacenter", null);
        transferUrl = rig.transferProvider(Map.of(edgeA, edgeA, "datacenter", pool),
                TransferOptions.defaults().withChunkBytes(TransferOptions.MIN_CHUNK).withMaxBytesPerSecond(5L * 1024 * 1024));
    }

    @AfterEach
    void stop() throws Exception {
        rig.close();
        db.close();
    }

    /** A frame the classifier reads, padded with whitespace (JSON ignores it) to {@code bytes}. */
    private static byte[] paddedFrame(int bytes) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes);
        out.write(Wire.encode(Tensor.of(TestModels.CLS_SHAPE, TestModels.image(5, 1))));
        byte[] pad = new byte[bytes - out.size()];
        Arrays.fill(pad, (byte) ' ');
        out.write(pad);
        return out.toByteArray();
    }

    private static long codes(JsonNode log, String code) {
        long n = 0;
        for (JsonNode entry : log.path("entries")) {
            n += entry.path("code").asText().equals(code) ? 1 : 0;
        }
        return n;
    }

    @Test
    void shouldFinishTheMoveOnceAndSucceedWhenTheProviderRestartsMidMove() throws Exception {
        Path frame = Files.createDirectories(rig.dataDir(edgeA).resolve("frames")).resolve("big.json");
        Files.write(frame, paddedFrame(INPUT_BYTES));

        Instance first = new Instance();
        Instance second = null;
        try {
            JsonNode started = ProviderCalls.post(first.url() + "/run",
                    InputMoveRig.run("r-restart-move", "file:frames/big.json", edgeA, INPUT_BYTES));
            String id = started.path("action_id").asText();
            assertThat(started.path("display_status").asText()).as(started.toString()).isEqualTo("Moving input to " + pool);
            long began = System.nanoTime();
            assertThat(Await.until(Duration.ofSeconds(10), () -> rig.transfersCreated.get() == 1)).isTrue();
            Thread.sleep(1000); // the period under test: the move runs a while before the provider stops
            long movingFor = Duration.ofNanos(System.nanoTime() - began).toMillis();
            JsonNode mid = ProviderCalls.get(first.url() + "/" + id + "/status");
            assertThat(mid.at("/details/state").asText()).as("still moving when the provider stops: " + mid)
                    .isEqualTo("moving input");
            first.stop();

            second = new Instance();
            JsonNode done = ProviderCalls.awaitFinal(second.url() + "/" + id + "/status");

            assertThat(done.path("status").asText()).as(done.toString()).isEqualTo("SUCCEEDED");
            JsonNode d = done.get("details");
            assertThat(d.get("device_id").asText()).isEqualTo(pool);
            assertThat(d.at("/output/shape").toString()).isEqualTo("[1,2]");
            Path moved = rig.dataDir(pool).resolve(InputMover.LANDING).resolve(id).resolve("big.json");
            assertThat(Files.mismatch(moved, frame)).as("the moved input against the original").isEqualTo(-1L);
            // one transfer for the request id: the new instance found the one the first had started
            assertThat(rig.transfersCreated.get()).as("transfers the transfer provider created").isEqualTo(1);
            assertThat(rig.transfersFound.get()).as("runs that found it again").isGreaterThanOrEqualTo(1);
            assertThat(d.at("/input_move/request_id").asText()).isEqualTo(id + "/input");
            assertThat(d.at("/input_move/bytes").asLong()).isEqualTo(INPUT_BYTES);
            // timed from the move's start, kept across the restart
            assertThat(d.at("/input_move/transfer_ms").asLong()).isGreaterThanOrEqualTo(movingFor);
            assertThat(d.at("/actual/input_move_ms").asLong()).isEqualTo(d.at("/input_move/transfer_ms").asLong());
            JsonNode log = ProviderCalls.get(second.url() + "/" + id + "/log");
            assertThat(log.toString()).contains("MovingInput").contains("Resumed").doesNotContain("InputTransferFailed");
            // the move ended once, in the new instance: the stopped one neither finished it nor sent the task
            assertThat(codes(log, "InputMoved")).as(log.toString()).isEqualTo(1);
            // a poller of the first instance still running would write now
            String statusUrl = second.url() + "/" + id + "/status";
            await("the action stays SUCCEEDED").during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(50))
                    .until(() -> ProviderCalls.get(statusUrl).path("status").asText(), equalTo("SUCCEEDED"));
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
        }
    }
}
