package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;

import org.junit.jupiter.api.Test;

class FunctionsTest {

    private static final String STATE = "{\"x\": 5, \"input\": {\"path\": \"/a/b\", \"empty\": null, \"items\": [{\"n\": 1}]}}";

    @Test
    void shouldSplitPathsIntoHeadAndTailAsGlobusDocuments() throws Exception {
        assertEvaluates("pathsplit('/foo/bar/blech')", "[\"/foo/bar\",\"blech\"]");
        assertEvaluates("pathsplit('/~/path')", "[\"/~/\",\"path\"]");
        assertEvaluates("pathsplit('/foo')", "[\"/\",\"foo\"]");
        assertEvaluates("pathsplit('/foo/bar/')", "[\"/foo/bar\",\"\"]");
        assertEvaluates("pathsplit('file.txt')", "[\"\",\"file.txt\"]");
        assertEvaluates("pathsplit(input.path)[1]", STATE, "\"b\"");
    }

    @Test
    void shouldReportPresenceOfStatePathsGivenAsStrings() throws Exception {
        assertEvaluates("is_present('x')", STATE, "true");
        assertEvaluates("is_present('y')", STATE, "false");
        assertEvaluates("is_present('input.path')", STATE, "true");
        assertEvaluates("is_present('input.empty')", STATE, "true");
        assertEvaluates("is_present('input.items[0].n')", STATE, "true");
        assertEvaluates("is_present('input.items[1]')", STATE, "false");
        assertEvaluates("is_present('$.input.path')", STATE, "true");
        assertEvaluates("x if is_present('x') else 10", STATE, "5");
        assertEvaluates("y if is_present('y') else 10", STATE, "10");
    }

    @Test
    void shouldReadStatePathsWithDefaultsThroughGetattr() throws Exception {
        assertEvaluates("getattr('x', 10)", STATE, "5");
        assertEvaluates("getattr('y', 10)", STATE, "10");
        assertEvaluates("getattr('missing_property')", STATE, "null");
        assertEvaluates("getattr('input.path')", STATE, "\"/a/b\"");
        assertEvaluates("getattr(input, 'path')", STATE, "\"/a/b\"");
        assertEvaluates("getattr(input, 'nope', 'dflt')", STATE, "\"dflt\"");
    }

    @Test
    void shouldConvertBetweenTypesLikePython() throws Exception {
        assertEvaluates("str(5) + str(None) + str(True) + str([1, 'a']) + str({'k': 1.5})",
                "\"5NoneTrue[1, 'a']{'k': 1.5}\"");
        assertEvaluates("int('42') + int(' -7 ') + int(3.99) + int(-3.99) + int(True)", "36");
        assertEvaluates("int('ff', 16)", "255");
        assertEvaluates("float('1.5') + float(2) + float(' 1e3 ')", "1003.5");
        assertEvaluates("bool('') or bool([0])", "true");
        assertEvaluates("str()", "\"\"");
    }

    @Test
    void shouldComputeAggregatesLikePython() throws Exception {
        assertEvaluates("len([1, 2]) + len('abc') + len({'a': 1})", "6");
        assertEvaluates("abs(-3) + abs(-1.5)", "4.5");
        assertEvaluates("min(3, 1, 2)", "1");
        assertEvaluates("max([3, 1, 2])", "3");
        assertEvaluates("max('apple', 'pear')", "\"pear\"");
        assertEvaluates("min([], default=0)", "0");
        assertEvaluates("sum([1, 2, 3])", "6");
        assertEvaluates("sum([0.5, 0.25], 1)", "1.75");
        assertEvaluates("sum([[1], [2]], [])", "[1,2]");
        assertEvaluates("any([0, '', 3]) and not all([1, 0])", "true");
    }

    @Test
    void shouldProduceBoundedRanges() throws Exception {
        assertEvaluates("range(4)", "[0,1,2,3]");
        assertEvaluates("range(2, 5)", "[2,3,4]");
        assertEvaluates("range(10, 0, -3)", "[10,7,4,1]");
        assertEvaluates("range(0)", "[]");
    }

    @Test
    void shouldSortStablyAndInReverse() throws Exception {
        assertEvaluates("sorted([3, 1, 2])", "[1,2,3]");
        assertEvaluates("sorted(['b', 'a', 'C'])", "[\"C\",\"a\",\"b\"]");
        assertEvaluates("sorted([1, 3, 2], reverse=True)", "[3,2,1]");
        assertEvaluates("sorted([1, 1.0, 0], reverse=True)", "[1,1.0,0]");
        assertEvaluates("sorted({'b': 1, 'a': 2})", "[\"a\",\"b\"]");
        assertEvaluates("list(reversed([1, 2, 3]))", "[3,2,1]");
    }

    @Test
    void shouldRoundHalfToEvenAsPythonDoes() throws Exception {
        assertEvaluates("round(2.5)", "2");
        assertEvaluates("round(3.5)", "4");
        assertEvaluates("round(-2.5)", "-2");
        assertEvaluates("round(2.675, 2)", "2.67");
        assertEvaluates("round(1234, -2)", "1200");
        assertEvaluates("round(7, 2)", "7");
        assertEvaluates("round(0.5, 0)", "0.0");
    }

    @Test
    void shouldPairItemsWithEnumerateAndZip() throws Exception {
        assertEvaluates("enumerate(['a', 'b'], 1)", "[[1,\"a\"],[2,\"b\"]]");
        assertEvaluates("zip([1, 2, 3], 'ab')", "[[1,\"a\"],[2,\"b\"]]");
        assertEvaluates("dict(zip(['a', 'b'], [1, 2]))", "{\"a\":1,\"b\":2}");
    }

    @Test
    void shouldAcceptAGeneratorExpressionAsTheOnlyArgument() throws Exception {
        assertEvaluates("sum(x * x for x in range(4))", "14");
        assertEvaluates("all(x > 0 for x in [1, 2])", "true");
        assertEvaluates("','.join(str(x) for x in [1, 2])", "\"1,2\"");
    }

    @Test
    void shouldFailOnBadFunctionCalls() {
        assertFails("nope(1)", "function 'nope' is not defined");
        assertFails("len(5)", "object of type 'int' has no len()");
        assertFails("len()", "len() takes 1 positional argument but 0 were given");
        assertFails("int('3.5')", "invalid literal for int() with base 10: '3.5'");
        assertFails("float('abc')", "could not convert string to float: 'abc'");
        assertFails("float('inf')", "could not convert string to float");
        assertFails("max([])", "max() arg is an empty sequence");
        assertFails("sum(['a'])", "unsupported operand types for +: 'int' and 'str'");
        assertFails("sorted([1, 'a'])", "'<' not supported between instances of 'str' and 'int'");
        assertFails("sorted([1], cmp=1)", "sorted() got an unexpected keyword argument 'cmp'");
        assertFails("range(0, 5, 0)", "range() arg 3 must not be zero");
        assertFails("pathsplit(5)", "pathsplit() argument 'path' must be str, not int");
    }
}
