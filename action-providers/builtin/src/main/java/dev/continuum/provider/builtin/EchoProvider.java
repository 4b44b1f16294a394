package dev.continuum.provider.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.api.ProviderDescription;
import dev.continuum.provider.server.ActionContext;
import dev.continuum.provider.server.ActionProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * {@code echo}: succeeds at once with the body as its details. With an effects log, every new
 * action (never a repeated request_id) appends {@code request_id<TAB>action_id} and fsyncs before
 * answering, so crash tests can count that each action took effect exactly once.
 */
public final class EchoProvider implements ActionProvider {

    static final String SCOPE = "urn:continuum:providers:echo";
    private static final JsonNode SCHEMA = Schemas.parse("""
            {"$schema": "https://json-schema.org/draft/2020-12/schema",
             "type": "object",
             "description": "Any JSON object; it comes back as the action's details."}""");

    private final Optional<Path> effectsLog;

    public EchoProvider(Optional<Path> effectsLog) {
        this.effectsLog = effectsLog;
    }

    @Override
    public ProviderDescription describe() {
        return ProviderDescription.builder("Echo")
                .subtitle("Returns its input as its result")
                .description("Succeeds immediately; details are the request body.")
                .keywords(java.util.List.of("test", "echo"))
                .scope(SCOPE)
                .synchronous(true)
                .inputSchema(SCHEMA)
                .build();
    }

    @Override
    public ActionStatus start(ActionRequest request, ActionContext ctx) {
        effectsLog.ifPresent(path -> recordEffect(path, request.requestId(), ctx.actionId()));
        return ctx.succeeded(request.body());
    }

    /** Without an effects log echo only copies its body; with one, it appends and fsyncs a file: that blocks. */
    @Override
    public boolean neverBlocks() {
        return effectsLog.isEmpty();
    }

    private static synchronized void recordEffect(Path path, String requestId, String actionId) {
        String line = oneLine(requestId) + "\t" + actionId + "\n";
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer bytes = ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
            channel.force(true); // the effect counts only once it survives a crash
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the effects log " + path, e);
        }
    }

    private static String oneLine(String text) {
        return text.replace('\t', ' ').replace('\n', ' ').replace('\r', ' ');
    }
}
