package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;
import static dev.continuum.flow.expr.ExpressionTestSupport.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

class CollectionsTest {

    @Test
    void shouldBuildListAndDictLiterals() throws Exception {
        assertEvaluates("[1, 'a', None, True, [2], {}]", "[1,\"a\",null,true,[2],{}]");
        assertEvaluates("{'a': 1, \"b\": [x]}", "{\"x\": 2}", "{\"a\":1,\"b\":[2]}");
        assertEvaluates("[1, 2,]", "[1,2]");
        assertEvaluates("(1, 2)", "[1,2]");
        assertEvaluates("()", "[]");
        assertEvaluates("1, 2", "[1,2]");
    }

    @Test
    void shouldWriteNonStringDictKeysAsJsonDoes() throws Exception {
        assertEvaluates("{1: 'a', True: 'b', None: 'c'}", "{\"1\":\"a\",\"true\":\"b\",\"null\":\"c\"}");
    }

    @Test
    void shouldFilterAndNestComprehensions() throws Exception {
        assertEvaluates("[x * 2 for x in xs if x % 2 == 1]", "{\"xs\": [1, 2, 3, 4, 5]}", "[2,6,10]");
        assertEvaluates("[x + y for x in 'ab' for y in 'cd']", "[\"ac\",\"ad\",\"bc\",\"bd\"]");
        assertEvaluates("[[y for y in range(x)] for x in range(3)]", "[[],[0],[0,1]]");
        assertEvaluates("[x for x in xs if x > 1 if x < 4]", "{\"xs\": [1, 2, 3, 4]}", "[2,3]");
    }

    @Test
    void shouldUnpackPairsInComprehensions() throws Exception {
        assertEvaluates("[k + '=' + str(v) for k, v in d.items()]", "{\"d\": {\"a\": 1, \"b\": 2}}", "[\"a=1\",\"b=2\"]");
        assertEvaluates("[i * x for (i, x) in enumerate([5, 6])]", "[0,6]");
        assertFails("[a for a, b in [[1, 2, 3]]]", "cannot unpack 3 values into 2 variables");
    }

    @Test
    void shouldBuildDictComprehensions() throws Exception {
        assertEvaluates("{f.name: f.size for f in files if f.size > 0}",
                "{\"files\": [{\"name\": \"a\", \"size\": 3}, {\"name\": \"b\", \"size\": 0}]}", "{\"a\":3}");
    }

    @Test
    void shouldNotLeakComprehensionVariables() {
        assertFails("[x for x in [1]] + [x]", "name 'x' is not defined");
    }

    @Test
    void shouldLetComprehensionVariablesShadowNames() throws Exception {
        assertEvaluates("[x for x in [1, 2]] + [x]", "{\"x\": 9}", "[1,2,9]");
    }

    @Test
    void shouldIterateDictKeysAndStringCharacters() throws Exception {
        assertEvaluates("[k for k in {'a': 1, 'b': 2}]", "[\"a\",\"b\"]");
        assertEvaluates("[c for c in 'hi']", "[\"h\",\"i\"]");
    }

    @Test
    void shouldReadDictsThroughMethodsAndDots() throws Exception {
        String names = "{\"d\": {\"a\": 1, \"keys\": \"shadow\"}}";
        assertEvaluates("d.get('a')", names, "1");
        assertEvaluates("d.get('z')", names, "null");
        assertEvaluates("d.get('z', 0)", names, "0");
        assertEvaluates("d.keys()", names, "[\"a\",\"keys\"]");
        assertEvaluates("d.values()", names, "[1,\"shadow\"]");
        assertEvaluates("d.items()", names, "[[\"a\",1],[\"keys\",\"shadow\"]]");
        assertEvaluates("d.keys", names, "\"shadow\"");
        assertEvaluates("[1, 2, 2].count(2) + [1, 2].index(2)", "3");
    }

    @Test
    void shouldRefuseMutatingMethodsWithAnExplanation() {
        assertFails("[1].append(2)", "expressions cannot modify values");
        assertFails("{'a': 1}.update({})", "expressions cannot modify values");
    }

    @Test
    void shouldLeaveTheNamesObjectUnchanged() throws Exception {
        JsonNode names = json("{\"xs\": [1, 2], \"d\": {\"a\": 1}}");
        JsonNode before = names.deepCopy();
        Expressions.evaluate("xs + [3]", names);
        Expressions.evaluate("[d] * 2 + sorted(xs, reverse=True)", names);
        Expressions.evaluate("dict(d, b=2)", names);
        assertThat(names).isEqualTo(before);
    }

    @Test
    void shouldReturnAResultThatDoesNotShareNodesWithTheNames() throws Exception {
        JsonNode names = json("{\"d\": {\"a\": [1]}}");
        JsonNode result = Expressions.evaluate("[d, d.a]", names);
        ((com.fasterxml.jackson.databind.node.ObjectNode) result.get(0)).put("added", true);
        ((com.fasterxml.jackson.databind.node.ArrayNode) result.get(1)).add(2);
        assertThat(names).isEqualTo(json("{\"d\": {\"a\": [1]}}"));
    }

    @Test
    void shouldFailOnMissingKeysAndAttributes() {
        assertFails("{'a': 1}.missing", "'dict' object has no key or attribute 'missing'");
        assertFails("'s'.nothing", "'str' object has no attribute 'nothing'");
        assertFails("'s'.nothing()", "'str' object has no method 'nothing'");
        assertFails("{[1]: 2}", "unhashable type: 'list'");
    }
}
