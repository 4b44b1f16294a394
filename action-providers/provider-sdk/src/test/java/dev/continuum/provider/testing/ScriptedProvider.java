package dev.continuum.provider.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.api.ProviderJson;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider steered by its body: {"message": "..."} succeeds at once with the body as details;
 * "mode": "later" stays ACTIVE until the test finishes it via {@link #context}; "mode": "crash"
 * throws from start.
 */
public final class ScriptedProvider implements ActionProvider {

    public static final JsonNode SCHEMA = json("""
            {"type": "object",
             "properties": {"message": {"type": "string"}, "mode": {"enum": ["now", "later", "crash"]}},
             "required": ["message"]}""");

    public final AtomicInteger starts = new AtomicInteger();
    public final AtomicInteger cancels = new AtomicInteger();
    public final AtomicInteger stops = new AtomicInteger();
    private final Map<String, ActionContext> contexts = new ConcurrentHashMap<>();

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Scripted").subtitle("test provider").scope("urn:test:scope")
                .inputSchema(SCHEMA).build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        starts.incrementAndGet();
        contexts.put(ctx.actionId(), ctx);
        String mode = request.body().path("mode").asText("now");
        return switch (mode) {
            case "later" -> {
                ctx.log("Waiting", "waiting for the test", null);
                yield ctx.active("Waiting", null);
            }
            case "crash" -> throw new IllegalStateException("boom");
            default -> ctx.succeeded(request.body());
        };
    }

    @Override
    public void cancel(ActionContext ctx) {
        cancels.incrementAndGet();
    }

    @Override
    public void stop() {
        stops.incrementAndGet();
    }

    public ActionContext context(String actionId) {
        return contexts.get(actionId);
    }

    public static JsonNode json(String text) {
        try {
            return ProviderJson.mapper().readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }
}
