package dev.continuum.flow.expr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random expressions, built from the whole grammar and every built-in, over values of every type:
 * each must either produce a value or fail with an ExpressionException that names a problem —
 * never an internal error, a hang or an escaping runtime exception. The seed is fixed so a failure
 * reproduces; the failing expression is in the assertion message.
 */
class RobustnessTest {

    private static final String[] FUNCTIONS = {"pathsplit", "is_present", "getattr", "len", "str", "repr", "int",
        "float", "bool", "abs", "min", "max", "sum", "range", "sorted", "reversed", "round", "list", "dict", "any",
        "all", "enumerate", "zip"};
    private static final String[] METHODS = {"strip", "rstrip", "lstrip", "split", "rsplit", "join", "startswith",
        "endswith", "replace", "lower", "upper", "format", "get", "keys", "values", "items", "find", "index", "count",
        "zfill", "title", "partition", "splitlines", "isdigit", "removeprefix", "append"};
    private static final String[] BINARY = {"+", "-", "*", "/", "//", "%", "**", "==", "!=", "<", "<=", ">", ">=",
        "in", "not in", "and", "or", "is", "is not"};
    private static final String[] LITERALS = {"0", "1", "-1", "2", "7", "0.5", "-2.5", "1e300", "2**63", "-2**64",
        "''", "'a/b/'", "'{}-{}'", "'%s'", "'x y'", "None", "True", "False", "[]", "[1, 'a']", "{}", "{'k': [1]}",
        "s", "n", "f", "xs", "d", "nul", "`$.d.k`", "`$.xs[-1]`"};
    private static final JsonNode NAMES = ExpressionTestSupport.json(
            "{\"s\": \"/~/dir/file.h5\", \"n\": 3, \"f\": 1.25, \"xs\": [3, 1, 2], \"d\": {\"k\": \"v\", \"n\": [1, {}]},"
                    + " \"nul\": null}");

    private final Random random = new Random(20240611L);

    @Test
    void shouldFailOnlyWithExpressionExceptionsForRandomExpressions() {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            int values = 0;
            for (int i = 0; i < 30_000; i++) {
                String expression = expression(3);
                try {
                    Expressions.evaluate(expression, NAMES);
                    values++;
                } catch (ExpressionException e) {
                    assertThat(e.getMessage()).as(expression)
                            .doesNotContain("could not be evaluated (").doesNotContain("could not be parsed (");
                } catch (Throwable t) {
                    throw new AssertionError("unexpected " + t + " for: " + expression, t);
                }
            }
            assertThat(values).as("share of random expressions that produce a value").isGreaterThan(3_000);
        });
    }

    @Test
    void shouldReportSyntaxErrorsOnlyAsExpressionExceptionsForRandomText() {
        String alphabet = "ab1.0'\"`$[](){}:,+-*/%<>=!notandorifelsefor in \\x";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(20);
            for (int j = 0; j < length; j++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String expression = text.toString();
            Expressions.checkSyntax(expression).ifPresent(e -> assertThat(e.getMessage()).as(expression)
                    .doesNotContain("could not be parsed ("));
        }
    }

    private String expression(int depth) {
        if (depth == 0) {
            return pick(LITERALS);
        }
        return switch (random.nextInt(9)) {
            case 0 -> pick(LITERALS);
            case 1 -> "(" + expression(depth - 1) + " " + pick(BINARY) + " " + expression(depth - 1) + ")";
            case 2 -> pick(FUNCTIONS) + "(" + arguments(depth - 1) + ")";
            case 3 -> "(" + expression(depth - 1) + ")." + pick(METHODS) + "(" + arguments(depth - 1) + ")";
            case 4 -> "(" + expression(depth - 1) + ")[" + expression(depth - 1) + "]";
            case 5 -> "(" + expression(depth - 1) + ")[" + optional(depth) + ":" + optional(depth) + ":" + optional(depth) + "]";
            case 6 -> "(" + expression(depth - 1) + " if " + expression(depth - 1) + " else " + expression(depth - 1) + ")";
            case 7 -> "[" + expression(depth - 1) + " for v in " + expression(depth - 1) + " if v]";
            default -> random.nextBoolean() ? "not " + expression(depth - 1) : "-" + expression(depth - 1);
        };
    }

    private String optional(int depth) {
        return random.nextBoolean() ? "" : expression(depth - 1);
    }

    private String arguments(int depth) {
        List<String> args = new ArrayList<>();
        int count = random.nextInt(4);
        for (int i = 0; i < count; i++) {
            args.add(expression(depth));
        }
        return String.join(", ", args);
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }
}
