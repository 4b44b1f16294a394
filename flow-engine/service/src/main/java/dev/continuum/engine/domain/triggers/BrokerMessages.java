package dev.continuum.engine.domain.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.engine.domain.EngineError.FieldIssue;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * The rules of the sources a message broker feeds ({@code mqtt}, {@code amqp}): which triggers a message is for
 * (the trigger's {@code source.topic}, an MQTT topic filter with {@code +} and {@code #}), and the dedup key that
 * names the message across redeliveries.
 *
 * <p>An MQTT packet id is not a name for the event: it is per connection and reused, and a redelivery after the
 * engine's restart may carry another one. So the key is the sender's own {@code event_id} (a field of the JSON
 * payload) when it gives one, else a SHA-256 of topic and payload bytes — the same message redelivered is the
 * same event, and two different messages are two events.
 */
public final class BrokerMessages {

    /** Source types a broker channel feeds; each names the engine channel that carries its messages. */
    public static final Set<String> SOURCES = Set.of("mqtt", "amqp");
    /** The payload field a sender may name its event by (stable across its own retries). */
    public static final String EVENT_ID = "event_id";
    static final int MAX_TOPIC = 1024;
    static final int MAX_EVENT_ID = 256;

    private BrokerMessages() {}

    public static boolean fedByBroker(String sourceType) {
        return SOURCES.contains(sourceType);
    }

    /** The trigger's topic filter ({@code source.topic}). */
    public static String topicFilter(Trigger trigger) {
        return trigger.spec().source().path("topic").asText();
    }

    /** The key a message is recorded under: {@code <source>:id:<event_id>}, or {@code <source>:sha256:<hex>}. */
    public static String dedupKey(String sourceType, String topic, byte[] payload, JsonNode parsed) {
        JsonNode id = parsed == null ? null : parsed.get(EVENT_ID);
        if (id != null && id.isValueNode() && !id.asText().isBlank() && id.asText().length() <= MAX_EVENT_ID) {
            return sourceType + ":id:" + id.asText();
        }
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(topic.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(payload);
            return sourceType + ":sha256:" + HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    /** A topic filter as MQTT allows it: {@code +} a whole level, {@code #} only as the last level. */
    public static void check(JsonNode source, List<FieldIssue> issues) {
        JsonNode topic = source.get("topic");
        if (topic == null || !topic.isTextual() || topic.asText().isEmpty() || topic.asText().length() > MAX_TOPIC) {
            issues.add(new FieldIssue("/source/topic", "a topic filter of 1 to " + MAX_TOPIC
                    + " characters is required, e.g. \"instruments/+/images\""));
            return;
        }
        String[] levels = topic.asText().split("/", -1);
        for (int i = 0; i < levels.length; i++) {
            String level = levels[i];
            boolean wildcardInside = (level.contains("+") && !level.equals("+")) || (level.contains("#") && !level.equals("#"));
            if (wildcardInside || (level.equals("#") && i != levels.length - 1)) {
                issues.add(new FieldIssue("/source/topic", "'+' must be a whole level and '#' the whole last level: "
                        + topic.asText()));
                return;
            }
        }
    }
}
