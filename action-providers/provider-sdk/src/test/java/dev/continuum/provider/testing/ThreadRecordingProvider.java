package dev.continuum.provider.testing;

import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import io.vertx.core.Context;
import java.util.concurrent.atomic.AtomicInteger;

/** The scripted provider, recording the thread its start runs on; says it never blocks when told to. */
public final class ThreadRecordingProvider implements ActionProvider {

    private final ScriptedProvider scripted = new ScriptedProvider();
    private final boolean neverBlocks;
    public final AtomicInteger starts = scripted.starts;
    public volatile Thread startedOn;
    public volatile boolean startedOnEventLoop;

    public ThreadRecordingProvider(boolean neverBlocks) {
        this.neverBlocks = neverBlocks;
    }

    @Override
    public ProviderDescription describe() {
        return scripted.describe();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        startedOn = Thread.currentThread();
        startedOnEventLoop = Context.isOnEventLoopThread();
        return scripted.start(request, ctx);
    }

    @Override
    public boolean neverBlocks() {
        return neverBlocks;
    }
}
