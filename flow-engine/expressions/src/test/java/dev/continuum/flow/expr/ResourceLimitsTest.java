package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Hostile expressions must fail fast with a clear message rather than exhaust memory or CPU. Each
 * case runs under a generous wall-clock guard so that a regression shows as a failure, not a hang.
 */
class ResourceLimitsTest {

    private static final Duration GUARD = Duration.ofSeconds(5);

    private static void assertFailsFast(String expression, String messagePart) {
        assertTimeoutPreemptively(GUARD, () -> assertFails(expression, messagePart));
    }

    @Test
    void shouldRefuseHugeStringRepetitionBeforeBuildingIt() {
        assertFailsFast("'a' * 10**9", "string result would be longer than 1048576 characters");
        assertFailsFast("'ab' * (2**70)", "string result would be longer than");
    }

    @Test
    void shouldRefuseHugeListRepetitionBeforeBuildingIt() {
        assertFailsFast("[0] * 10**9", "collection would have more than 1048576 elements");
        assertFailsFast("[[0] * 1000] * 2000000", "collection would have more than");
    }

    @Test
    void shouldRefuseHugeIntegers() {
        assertFailsFast("2 ** 10**9", "integer result would have more than 4096 bits");
        assertFailsFast("10 ** 10 ** 10", "integer result would have more than 4096 bits");
        assertFailsFast("(2 ** 4000) * (2 ** 4000)", "integer result would have more than 4096 bits");
    }

    @Test
    void shouldRefuseHugeRanges() {
        assertFailsFast("range(10**9)", "collection would have more than");
        assertFailsFast("range(-2**62, 2**62)", "collection would have more than");
    }

    @Test
    void shouldStopRunawayComprehensionsAtTheStepLimit() {
        assertFailsFast("[1 for a in range(1000) for b in range(1000) for c in range(1000)]",
                "expression needs more than 1000000 evaluation steps");
    }

    @Test
    void shouldStopRepeatedGrowthAtTheAllocationLimit() {
        assertFailsFast("[('x' * 1000000) + str(i) for i in range(100)]", "characters and elements in total");
    }

    @Test
    void shouldChargeWorkOnLongStringsToTheStepBudget() {
        ObjectNode names = JsonNodeFactory.instance.objectNode();
        names.put("s", "a".repeat(1_000_000));
        names.put("t", "a".repeat(1_000_000));
        assertTimeoutPreemptively(GUARD, () -> {
            assertFails(() -> Expressions.evaluate("[s == t for i in range(100000)]", names), "evaluation steps");
            assertFails(() -> Expressions.evaluate("[s < t for i in range(100000)]", names), "evaluation steps");
            assertFails(() -> Expressions.evaluate("[len(s[1:]) for i in range(100000)]", names), "evaluation steps");
            assertFails(() -> Expressions.evaluate("[s[-1] for i in range(100000)]", names), "evaluation steps");
            assertFails(() -> Expressions.evaluate("[s.find('b') for i in range(100000)]", names), "evaluation steps");
        });
    }

    @Test
    void shouldRefuseResultsLargerThanTheResultLimitEvenWhenSharedInMemory() {
        // each element is the same 1000-character string, so memory is small but the JSON is ~10 MB
        assertFailsFast("['y' * 1000] * 10000", "result would be larger than 1048576 bytes of JSON");
    }

    @Test
    void shouldRefuseOverlongExpressions() {
        assertFailsFast("1" + " + 1".repeat(3000), "expression is longer than 10000 characters");
    }

    @Test
    void shouldRefuseDeeplyNestedExpressions() {
        assertFailsFast("(".repeat(4000) + "1" + ")".repeat(4000), "nested more than 100 levels");
        assertFailsFast("[".repeat(4000) + "]".repeat(4000), "nested more than 100 levels");
        assertFailsFast("-".repeat(5000) + "1", "nested more than 100 levels");
        assertFailsFast("not ".repeat(2000) + "1", "nested more than 100 levels");
    }

    @Test
    void shouldRefuseToStringifyDeeplyNestedInput() {
        ObjectNode names = JsonNodeFactory.instance.objectNode();
        names.set("deep", nested(10_000));
        names.set("other", nested(10_000));
        assertTimeoutPreemptively(GUARD, () -> {
            assertFails(() -> Expressions.evaluate("str(deep)", names), "nested more than 100 levels");
            assertFails(() -> Expressions.evaluate("deep == other", names), "nested more than 100 levels");
            assertFails(() -> Expressions.evaluate("deep < other", names), "nested more than 100 levels");
            assertFails(() -> Expressions.evaluate("deep", names), "nested more than 100 levels");
        });
    }

    private static JsonNode nested(int depth) {
        ArrayNode root = JsonNodeFactory.instance.arrayNode();
        ArrayNode current = root;
        for (int i = 0; i < depth; i++) {
            ArrayNode child = JsonNodeFactory.instance.arrayNode();
            current.add(child);
            current = child;
        }
        return root;
    }

    @Test
    void shouldAcceptWorkJustInsideTheLimits() throws Exception {
        assertEvaluates("len('a' * 1048576)", "1048576");
        assertEvaluates("len([0] * 100000)", "100000");
        assertEvaluates("len(str(2 ** 4000))", "1205");
        assertEvaluates("sum(range(100000))", "4999950000");
    }

    @Test
    void shouldApplyCallerSuppliedLimits() {
        ExpressionLimits tight = new ExpressionLimits(100, 100, 10, 5, 1000, 10, 100, 64);
        assertFails(() -> Expressions.evaluate("'abc' * 4", null, tight), "longer than 10 characters");
        assertFails(() -> Expressions.evaluate("range(6)", null, tight), "more than 5 elements");
        assertFails(() -> Expressions.evaluate("2 ** 64", null, tight), "more than 64 bits");
        assertFails(() -> Expressions.evaluate("[1 for x in range(5) for y in range(5) for z in range(5) if False]", null, tight),
                "more than 100 evaluation steps");
        assertThat(new ExpressionLimits(100, 100, 10, 5, 1000, 10, 100, 64).maxSteps()).isEqualTo(100);
    }
}
