package dev.continuum.flow.expr;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Helpers shared by the expression tests: JSON in, JSON out. */
final class ExpressionTestSupport {

    static final ObjectMapper JSON = new ObjectMapper();

    private ExpressionTestSupport() {
    }

    static JsonNode json(String text) {
        try {
            return JSON.readTree(text.replace('\'', '"'));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(text, e);
        }
    }

    static JsonNode eval(String expression) throws ExpressionException {
        return Expressions.evaluate(expression, JSON.createObjectNode());
    }

    static JsonNode eval(String expression, String namesJson) throws ExpressionException {
        return Expressions.evaluate(expression, json(namesJson));
    }

    /** Asserts the result serialises to exactly this JSON text (so 2 and 2.0 differ, as in Python). */
    static void assertEvaluates(String expression, String expectedJson) throws Exception {
        assertThat(JSON.writeValueAsString(eval(expression))).as(expression).isEqualTo(expectedJson);
    }

    static void assertEvaluates(String expression, String names, String expectedJson) throws Exception {
        assertThat(JSON.writeValueAsString(eval(expression, names))).as(expression).isEqualTo(expectedJson);
    }

    static void assertFails(String expression, String messagePart) {
        assertFails(() -> eval(expression), messagePart);
    }

    static void assertFails(ThrowingCallable call, String messagePart) {
        assertThatThrownBy(call).isInstanceOf(ExpressionException.class).hasMessageContaining(messagePart);
    }
}
