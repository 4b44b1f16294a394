package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;

import org.junit.jupiter.api.Test;

class LogicAndComparisonTest {

    @Test
    void shouldCompareNumbersAcrossIntAndFloat() throws Exception {
        assertEvaluates("1 == 1.0", "true");
        assertEvaluates("True == 1", "true");
        assertEvaluates("2 > 1.5", "true");
        assertEvaluates("(2 ** 70) > 1e20", "true");
        assertEvaluates("1 != 1", "false");
    }

    @Test
    void shouldChainComparisonsLikePython() throws Exception {
        assertEvaluates("1 < 2 < 3", "true");
        assertEvaluates("1 < 3 < 2", "false");
        assertEvaluates("3 > 2 == 2", "true");
    }

    @Test
    void shouldCompareStringsAndListsLexicographically() throws Exception {
        assertEvaluates("'abc' < 'abd'", "true");
        assertEvaluates("'Z' < 'a'", "true");
        assertEvaluates("[1, 2] < [1, 3]", "true");
        assertEvaluates("[1, 2] < [1, 2, 0]", "true");
        assertEvaluates("[1, [2]] == [1.0, [2.0]]", "true");
        assertEvaluates("{'a': 1, 'b': 2} == {'b': 2, 'a': 1}", "true");
    }

    @Test
    void shouldRaiseTypeErrorWhenOrderingMixedTypes() {
        assertFails("1 < 'a'", "'<' not supported between instances of 'int' and 'str'");
        assertFails("None > 0", "'>' not supported between instances of 'NoneType' and 'int'");
        assertFails("{} < {}", "'<' not supported between instances of 'dict' and 'dict'");
    }

    @Test
    void shouldReturnAnOperandFromAndOrAsPythonDoes() throws Exception {
        assertEvaluates("0 or 'default'", "\"default\"");
        assertEvaluates("'x' or 'default'", "\"x\"");
        assertEvaluates("[] and 1", "[]");
        assertEvaluates("1 and 2", "2");
        assertEvaluates("not []", "true");
        assertEvaluates("not 'a'", "false");
    }

    @Test
    void shouldShortCircuitSoTheRightSideIsNotEvaluated() throws Exception {
        assertEvaluates("True or undefined_name", "true");
        assertEvaluates("False and undefined_name", "false");
        assertEvaluates("1 if True else undefined_name", "1");
    }

    @Test
    void shouldApplyPythonTruthiness() throws Exception {
        assertEvaluates("[bool(x) for x in [0, 0.0, '', [], {}, None, 1, 'a', [0], {'k': 0}]]",
                "[false,false,false,false,false,false,true,true,true,true]");
    }

    @Test
    void shouldTestMembershipInStringsListsAndDicts() throws Exception {
        assertEvaluates("'ell' in 'hello'", "true");
        assertEvaluates("2 in [1, 2.0]", "true");
        assertEvaluates("'k' in {'k': None}", "true");
        assertEvaluates("'v' not in {'k': 'v'}", "true");
        assertEvaluates("[1] in [[1], [2]]", "true");
    }

    @Test
    void shouldCompareWithNoneUsingIs() throws Exception {
        assertEvaluates("x is None", "{\"x\": null}", "true");
        assertEvaluates("x is not None", "{\"x\": 0}", "true");
        assertEvaluates("x is True", "{\"x\": 1}", "false");
    }

    @Test
    void shouldChooseBranchOfConditionalExpression() throws Exception {
        assertEvaluates("'big' if n > 10 else 'small'", "{\"n\": 11}", "\"big\"");
        assertEvaluates("'a' if n < 0 else 'b' if n == 0 else 'c'", "{\"n\": 0}", "\"b\"");
    }

    @Test
    void shouldFailMembershipOnNonContainers() {
        assertFails("1 in 'abc'", "'in <string>' requires string as left operand, not int");
        assertFails("1 in 5", "argument of type 'int' is not iterable");
    }
}
