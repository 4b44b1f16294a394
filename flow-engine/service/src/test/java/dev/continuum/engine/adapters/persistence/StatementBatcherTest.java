package dev.continuum.engine.adapters.persistence;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StatementBatcherTest {

    private final Vertx vertx = Vertx.vertx();
    private final List<CompletableFuture<String>> alone = new CopyOnWriteArrayList<>();
    private final List<List<Integer>> batches = new CopyOnWriteArrayList<>();

    @AfterEach
    void closeVertx() {
        vertx.close();
    }

    /** Sent alone: answered when the test says so. Sent in a batch: answered at once. */
    private StatementBatcher<Integer, String> batcher(boolean batchesFail) {
        return new StatementBatcher<>("test rows", vertx, Duration.ofHours(1), requests -> {
            batches.add(requests);
            return batchesFail ? Uni.createFrom().failure(new IllegalStateException("bad batch"))
                    : Uni.createFrom().item(requests.stream().map(r -> "batched " + r).toList());
        }, request -> {
            CompletableFuture<String> answer = new CompletableFuture<>();
            alone.add(answer);
            return Uni.createFrom().completionStage(answer);
        });
    }

    @Test
    void shouldSendRequestsThatQueuedWhileStatementsWereUnderWayAsOneBatch() {
        StatementBatcher<Integer, String> batcher = batcher(false);
        List<CompletableFuture<String>> answers = new ArrayList<>();
        IntStream.range(0, StatementBatcher.MAX_IN_FLIGHT + 10)
                .forEach(i -> answers.add(batcher.submit(i).subscribeAsCompletionStage()));

        assertThat(alone).hasSize(StatementBatcher.MAX_IN_FLIGHT); // an idle batcher adds no wait
        assertThat(batches).isEmpty();
        alone.getFirst().complete("alone 0");

        assertThat(answers.getLast().join()).isEqualTo("batched " + (StatementBatcher.MAX_IN_FLIGHT + 9));
        assertThat(batches).singleElement().asList().hasSize(10);
        assertThat(answers.getFirst().join()).isEqualTo("alone 0");
    }

    @Test
    void shouldAnswerEachRequestOfAFailedBatchOnItsOwn() {
        StatementBatcher<Integer, String> batcher = batcher(true);
        List<CompletableFuture<String>> answers = new ArrayList<>();
        IntStream.range(0, StatementBatcher.MAX_IN_FLIGHT + 3)
                .forEach(i -> answers.add(batcher.submit(i).subscribeAsCompletionStage()));
        alone.getFirst().complete("alone 0"); // frees a slot: the three queued go as one batch, which fails

        int retried = StatementBatcher.MAX_IN_FLIGHT + 3;
        while (alone.size() < retried) {
            Thread.onSpinWait(); // the retries are sent from the batch's failure callback
        }
        alone.get(retried - 3).complete("alone again");
        alone.get(retried - 2).completeExceptionally(new IllegalStateException("this one is bad"));
        alone.get(retried - 1).complete("alone too");

        assertThat(batches).hasSize(1);
        assertThat(answers.get(StatementBatcher.MAX_IN_FLIGHT).join()).isEqualTo("alone again");
        assertThatThrownBy(() -> answers.get(StatementBatcher.MAX_IN_FLIGHT + 1).join()).hasMessageContaining("this one is bad");
        assertThat(answers.get(StatementBatcher.MAX_IN_FLIGHT + 2).join()).isEqualTo("alone too");
    }
}
