package dev.continuum.engine.adapters.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The run driver's work carries only the driver's context across its Mutiny operators (issue 17): in the work itself
 * and in the callbacks of the operators it built, where the rest of a turn is built, even on another thread; operators
 * built elsewhere carry Quarkus's default context as before.
 */
@QuarkusTest
class VertxEventLoopTest {

    @Inject
    VertxEventLoop loop;

    @Test
    void shouldCarryOnlyTheDriversContextAcrossTheOperatorsItBuilds() throws Exception {
        CompletableFuture<Boolean> inWork = new CompletableFuture<>();
        CompletableFuture<Boolean> inCallback = new CompletableFuture<>();

        loop.execute(() -> {
            inWork.complete(DriverThreadContext.current());
            Uni.createFrom().item(1).onItem().delayIt().by(Duration.ofMillis(5)) // the callback comes on a timer thread
                    .map(x -> DriverThreadContext.current())
                    .subscribe().with(inCallback::complete, inCallback::completeExceptionally);
        });

        assertThat(inWork.get()).isTrue();
        assertThat(inCallback.get()).isTrue();
    }

    @Test
    void shouldLeaveWorkElsewhereWithTheDefaultContext() throws Exception {
        CompletableFuture<Boolean> elsewhere = new CompletableFuture<>();

        Uni.createFrom().item(1).onItem().delayIt().by(Duration.ofMillis(5))
                .map(x -> DriverThreadContext.current())
                .subscribe().with(elsewhere::complete, elsewhere::completeExceptionally);

        assertThat(DriverThreadContext.current()).isFalse();
        assertThat(elsewhere.get()).isFalse();
    }
}
