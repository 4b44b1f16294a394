package dev.continuum.provider.testing;

import dev.continuum.provider.api.ActionStatus;
import io.vertx.core.Vertx;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/** An in-process call made from a Vert.x event loop, as the engine's driver makes it: on which thread, answered when. */
public record EventLoopCall(Thread caller, boolean answeredOnReturn, CompletionStage<ActionStatus> answer) {

    public static EventLoopCall of(Vertx vertx, Supplier<CompletionStage<ActionStatus>> call) throws Exception {
        CompletableFuture<EventLoopCall> called = new CompletableFuture<>();
        vertx.getOrCreateContext().runOnContext(v -> {
            CompletionStage<ActionStatus> answer = call.get();
            called.complete(new EventLoopCall(Thread.currentThread(), answer.toCompletableFuture().isDone(), answer));
        });
        return called.get(10, TimeUnit.SECONDS);
    }

    /** The answer, waiting for it at most ten seconds. */
    public ActionStatus await() throws Exception {
        return answer.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
}
