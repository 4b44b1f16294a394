package dev.continuum.edge.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/** JSON encoding of every message on the edge link (snake_case fields, unknown fields ignored). */
public final class Wire {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
            .setSerializationInclusion(JsonInclude.Include.NON_NULL);

    private Wire() {}

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    public static byte[] encode(Object message) {
        try {
            return MAPPER.writeValueAsBytes(message);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Decodes a message; a malformed one is a {@link MalformedMessageException}, never a crash. */
    public static <T> T decode(byte[] payload, Class<T> type) {
        try {
            return MAPPER.readValue(payload, type);
        } catch (IOException | RuntimeException e) {
            throw new MalformedMessageException(type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    public static final class MalformedMessageException extends RuntimeException {
        public MalformedMessageException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
