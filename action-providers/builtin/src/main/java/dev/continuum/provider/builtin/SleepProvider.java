package dev.continuum.provider.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code sleep}: stays ACTIVE for {@code seconds}, then succeeds with {@code slept_seconds}; zero seconds succeeds
 * in the start call itself.
 * The wake-up time is kept in the action's details, so with a persistent store {@link #resume}
 * re-arms the timer after a restart; with the default in-memory store a restart forgets the
 * action altogether. Cancelling stops the timer (the framework cancels an action's timers).
 */
public final class SleepProvider implements ActionProvider {

    static final String SCOPE = "urn:continuum:providers:sleep";
    /** 31 days: long enough for "wait over the weekend" flows, short enough to catch unit mistakes. */
    static final long MAX_SECONDS = 31L * 24 * 3600;
    private static final JsonNode SCHEMA = Schemas.parse("""
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "type": "object",
             "properties": {"seconds": {"type": "number", "minimum": 0, "maximum": %d,
                                        "description": "How long to stay ACTIVE; fractions allowed."}},
             "required": ["seconds"],
             "additionalProperties": false}""".formatted(MAX_SECONDS));

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Sleep")
                .subtitle("Waits, then succeeds")
                .description("Stays ACTIVE for body.seconds and then SUCCEEDS with details.slept_seconds.")
                .keywords(List.of("test", "wait", "sleep"))
                .scope(SCOPE)
                .synchronous(false)
                .maximumDeadline("P31D")
                .inputSchema(SCHEMA)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        BigDecimal seconds = request.body().get("seconds").decimalValue();
        Instant wakeAt = ctx.status().startTime().plus(toDuration(seconds));
        ObjectNode details = JsonNodeFactory.instance.objectNode()
                .put("seconds", seconds)
                .put("wake_at", wakeAt.toString());
        if (seconds.signum() == 0) {
            // Nothing to wait for: answering at once spares the caller a turn for ACTIVE and another for the wake-up.
            return ctx.succeeded(sleptFor(seconds));
        }
        wakeUpAt(ctx, wakeAt, seconds);
        return ctx.active("Sleeping", details);
    }

    @Override
    public void resume(ActionContext ctx) {
        JsonNode details = ctx.status().details();
        BigDecimal seconds = ctx.request().body().path("seconds").decimalValue();
        Instant wakeAt = details.hasNonNull("wake_at") ? Instant.parse(details.get("wake_at").asText())
                : Instant.now().plus(toDuration(seconds));
        wakeUpAt(ctx, wakeAt, seconds);
    }

    /** Sleeping is a timer: start, cancel and resume only arm or disarm it. */
    @Override
    public boolean neverBlocks() {
        return true;
    }

    private static void wakeUpAt(ActionContext ctx, Instant wakeAt, BigDecimal seconds) {
        Duration remaining = Duration.between(Instant.now(), wakeAt);
        ctx.schedule(remaining.isNegative() ? Duration.ZERO : remaining,
                () -> ctx.complete(sleptFor(seconds)));
    }

    private static JsonNode sleptFor(BigDecimal seconds) {
        return JsonNodeFactory.instance.objectNode().put("slept_seconds", seconds);
    }

    private static Duration toDuration(BigDecimal seconds) {
        return Duration.ofMillis(seconds.movePointRight(3).longValue());
    }
}
