package dev.continuum.engine.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.BeanDeserializerModifier;
import com.fasterxml.jackson.databind.deser.std.DelegatingDeserializer;
import com.fasterxml.jackson.databind.deser.std.JsonNodeDeserializer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * Request bodies are read strictly, so a mistake is refused with a 400 naming the field instead of being guessed at
 * or failing later in the database:
 * <ul>
 *   <li>duplicate keys anywhere are an error (a flow with two states of the same name must not silently keep the last);
 *   <li>a value of the wrong JSON type is an error: {@code "title": true} or {@code "label": 7} are not the strings
 *       "true" and "7", and {@code "flow_version": "2"} or {@code 2.5} is not the number 2 (Jackson coerces such scalars by default);
 *   <li>text holding U+0000 or a lone surrogate half is an error, in any string and any key of any JSON value:
 *       PostgreSQL cannot store the first (the request failed with a 500), and UTF-8 cannot carry the second (it
 *       would be stored as '?', silently changed).
 * </ul>
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        mapper.configure(com.fasterxml.jackson.databind.DeserializationFeature.ACCEPT_FLOAT_AS_INT, false);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        SimpleModule storable = new SimpleModule("continuum-storable-text").setDeserializerModifier(new BeanDeserializerModifier() {
            @Override
            public JsonDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription bean, JsonDeserializer<?> deserializer) {
                return bean.getBeanClass() == String.class ? new StorableText(deserializer) : deserializer;
            }
        });
        // JSON trees (a run's body, a flow's definition) are found apart from bean deserializers: named one by one
        tree(storable, JsonNode.class);
        tree(storable, ObjectNode.class);
        tree(storable, ArrayNode.class);
        mapper.registerModule(storable);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T extends JsonNode> void tree(SimpleModule module, Class<T> type) {
        module.addDeserializer(type, (JsonDeserializer) new StorableText(JsonNodeDeserializer.getDeserializer(type)));
    }

    /** Why {@code text} cannot be stored as it is, if it cannot. */
    public static Optional<String> unstorable(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 0) {
                return Optional.of("contains the NUL character (U+0000), which cannot be stored");
            }
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return Optional.of("contains a lone UTF-16 surrogate (U+" + Integer.toHexString(c).toUpperCase() + "), which is not text");
            }
        }
        return Optional.empty();
    }

    /** Refused text: its path names the field, its message the reason (ProblemMappers shows both). */
    public static final class UnstorableText extends MismatchedInputException {
        UnstorableText(JsonParser parser, String message) {
            super(parser, message);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final class StorableText extends DelegatingDeserializer {

        StorableText(JsonDeserializer delegate) {
            super(delegate);
        }

        @Override
        protected JsonDeserializer<?> newDelegatingInstance(JsonDeserializer<?> delegate) {
            return new StorableText(delegate);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            Object value = super.deserialize(parser, context);
            Optional<String> problem = value instanceof String text ? unstorable(text)
                    : value instanceof JsonNode node ? inTree(node, "") : Optional.empty();
            if (problem.isPresent()) {
                throw new UnstorableText(parser, problem.get());
            }
            return value;
        }

        private static Optional<String> inTree(JsonNode node, String at) {
            if (node.isTextual()) {
                return unstorable(node.asText()).map(reason -> where(at) + reason);
            }
            if (node.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = fields.next();
                    String child = at + "/" + field.getKey().replace("~", "~0").replace("/", "~1");
                    Optional<String> problem = unstorable(field.getKey()).map(reason -> "the key at " + child + " " + reason)
                            .or(() -> inTree(field.getValue(), child));
                    if (problem.isPresent()) {
                        return problem;
                    }
                }
            } else if (node.isArray()) {
                for (int i = 0; i < node.size(); i++) {
                    Optional<String> problem = inTree(node.get(i), at + "/" + i);
                    if (problem.isPresent()) {
                        return problem;
                    }
                }
            }
            return Optional.empty();
        }

        private static String where(String at) {
            return at.isEmpty() ? "" : "the text at " + at + " ";
        }
    }
}
