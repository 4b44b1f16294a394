package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;
import static dev.continuum.flow.expr.ExpressionTestSupport.eval;

import org.junit.jupiter.api.Test;

class JsonPathInExpressionTest {

    private static final String STATE = """
            {"Path": {"To": {"SuffixString": "tail"}}, "list": [1, 2, 3], "odd key": {"x": 1},
             "runs": [{"id": "a"}, {"id": "b"}]}""";

    @Test
    void shouldResolveBackQuotedPathsAgainstTheNames() throws Exception {
        assertEvaluates("'Constant string ' + `$.Path.To.SuffixString`", STATE, "\"Constant string tail\"");
        assertEvaluates("`$.list[0]` + `$.list[-1]`", STATE, "4");
        assertEvaluates("`$['odd key'].x`", STATE, "1");
        assertEvaluates("`$.runs[*].id`", STATE, "[\"a\",\"b\"]");
        assertEvaluates("len(`$`)", STATE, "4");
    }

    @Test
    void shouldAllowMethodsAndIndexesAfterABackQuotedPath() throws Exception {
        assertEvaluates("`$.Path.To.SuffixString`.upper()[1:]", STATE, "\"AIL\"");
    }

    @Test
    void shouldFailWhenABackQuotedPathMatchesNothing() {
        assertFails(() -> eval("`$.Path.Nope`", STATE), "JSONPath '$.Path.Nope' does not match anything in the state at position 0");
    }

    @Test
    void shouldRejectJsonPathFeaturesOutsideTheSupportedSubset() {
        assertFails(() -> eval("`$..id`", STATE), "not supported");
        assertFails(() -> eval("`$.runs[?(@.id == 'a')]`", STATE), "unsupported selector");
        assertFails(() -> eval("`Path.To`", STATE), "must start with '$'");
        assertFails("`$.a", "unterminated back-quoted JSONPath at position 0");
    }
}
