package dev.continuum.edge.gateway.inference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.continuum.edge.protocol.Tensor;
import dev.continuum.edge.gateway.testing.TestModels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnnxInferenceTest {

    @TempDir
    Path cache;

    @Test
    void shouldClassifyAnImageWithTheRealModel() {
        try (ModelRepository repo = new ModelRepository(cache, true)) {
            String digest = repo.install(TestModels.ocrClassifier());
            try (ModelRepository.Lease lease = repo.acquire(digest)) {
                Tensor out = lease.model().run(TestModels.CLS_SHAPE, TestModels.image(1, 1));

                assertThat(out.shape()).containsExactly(1, 2);
                assertThat(out.values()[0] + out.values()[1]).isCloseTo(1f, org.assertj.core.data.Offset.offset(1e-4f));
                assertThat(lease.model().executionProvider()).isIn("CPU", "CUDA");
            }
        }
    }

    @Test
    void shouldGiveTheSameAnswersBatchedAsOneByOne() {
        try (ModelRepository repo = new ModelRepository(cache, false)) {
            String digest = repo.install(TestModels.ocrClassifier());
            List<Tensor> inputs = List.of(
                    Tensor.of(TestModels.CLS_SHAPE, TestModels.image(1, 1)),
                    Tensor.of(new long[] {2, 3, 48, 192}, TestModels.image(2, 2)),
                    Tensor.of(TestModels.CLS_SHAPE, TestModels.image(3, 1)));
            try (ModelRepository.Lease lease = repo.acquire(digest)) {
                List<BatchInference.Outcome> batched = BatchInference.run(lease.model(), inputs);

                for (int i = 0; i < inputs.size(); i++) {
                    Tensor alone = lease.model().run(inputs.get(i).shape(), inputs.get(i).values());
                    BatchInference.Output out = (BatchInference.Output) batched.get(i);
                    assertThat(out.batchSize()).isEqualTo(3);
                    assertThat(out.tensor().shape()).isEqualTo(alone.shape());
                    float[] a = alone.values();
                    float[] b = out.tensor().values();
                    for (int k = 0; k < a.length; k++) {
                        assertThat(b[k]).isCloseTo(a[k], org.assertj.core.data.Offset.offset(1e-4f));
                    }
                }
            }
        }
    }

    @Test
    void shouldAddressModelsByDigestAndRefuseTamperedContent() throws Exception {
        try (ModelRepository repo = new ModelRepository(cache, false)) {
            Path model = TestModels.ocrClassifier();
            String digest = repo.install(model);

            assertThat(digest).matches("sha256:[0-9a-f]{64}");
            assertThat(repo.install(model)).isEqualTo(digest);
            byte[] bytes = Files.readAllBytes(model);
            bytes[bytes.length - 1] ^= 1;
            assertThatThrownBy(() -> repo.install(new java.io.ByteArrayInputStream(bytes), digest))
                    .hasMessageContaining("expected " + digest);
        }
    }

    @Test
    void shouldRejectAnInputThatDoesNotFitTheModel() {
        try (ModelRepository repo = new ModelRepository(cache, false)) {
            String digest = repo.install(TestModels.ocrClassifier());
            try (ModelRepository.Lease lease = repo.acquire(digest)) {
                assertThatThrownBy(() -> lease.model().run(new long[] {1, 5, 48, 192}, new float[5 * 48 * 192]))
                        .hasMessageContaining("does not fit");
            }
        }
    }

    @Test
    void shouldSwapVersionsWithoutDroppingRequests() throws Exception {
        try (ModelRepository repo = new ModelRepository(cache, false)) {
            String v1 = repo.install(TestModels.ocrClassifier());
            // a second, byte-different copy of the same network stands in for "version 2"
            byte[] bytes = Files.readAllBytes(TestModels.ocrClassifier());
            Path copy = cache.resolveSibling(cache.getFileName() + "-v2.onnx");
            Files.write(copy, appendOnnxNoise(bytes));
            String v2 = repo.install(copy);
            assertThat(v2).isNotEqualTo(v1);
            repo.deploy("cls", "1", v1);

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger ok = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(2);
            List<Future<Integer>> failures = List.of(pool.submit(() -> hammer(repo, stop, ok)), pool.submit(() -> hammer(repo, stop, ok)));
            await("requests to run on version 1 before the swap").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(10)).until(() -> ok.get() >= 2);
            repo.deploy("cls", "2", v2);
            repo.retire(v1);
            int atSwap = ok.get();
            await("requests to run on version 2 after the swap").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(10)).until(() -> ok.get() >= atSwap + 2);
            stop.set(true);
            pool.shutdown();

            assertThat(failures.get(0).get() + failures.get(1).get()).isZero();
            assertThat(ok.get()).isPositive();
            try (ModelRepository.Lease lease = repo.acquire("cls")) {
                assertThat(lease.digest()).isEqualTo(v2);
            }
            assertThatThrownBy(() -> repo.acquire("cls@1")).isInstanceOf(ModelRepository.UnknownModelException.class);
            assertThat(repo.inventory()).extracting(m -> m.digest()).containsExactly(v2);
        }
    }

    private static int hammer(ModelRepository repo, AtomicBoolean stop, AtomicInteger ok) {
        int failures = 0;
        float[] image = TestModels.image(9, 1);
        while (!stop.get()) {
            try (ModelRepository.Lease lease = repo.acquire("cls")) {
                lease.model().run(TestModels.CLS_SHAPE, image);
                ok.incrementAndGet();
            } catch (RuntimeException e) {
                failures++;
            }
        }
        return failures;
    }

    /** ONNX files are protobuf: an unknown trailing field (number 15, varint 0) is ignored by the parser. */
    private static byte[] appendOnnxNoise(byte[] model) {
        byte[] out = java.util.Arrays.copyOf(model, model.length + 2);
        out[model.length] = (byte) (15 << 3);
        out[model.length + 1] = 0;
        return out;
    }
}
