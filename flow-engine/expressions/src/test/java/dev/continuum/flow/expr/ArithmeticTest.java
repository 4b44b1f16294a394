package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;
import static dev.continuum.flow.expr.ExpressionTestSupport.eval;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import org.junit.jupiter.api.Test;

class ArithmeticTest {

    @Test
    void shouldRespectPythonPrecedence() throws Exception {
        assertEvaluates("1 + 2 * 3", "7");
        assertEvaluates("(1 + 2) * 3", "9");
        assertEvaluates("2 ** 3 ** 2", "512");
        assertEvaluates("-2 ** 2", "-4");
        assertEvaluates("2 ** -1", "0.5");
        assertEvaluates("10 - 4 - 3", "3");
        assertEvaluates("--3", "3");
    }

    @Test
    void shouldUseTrueDivisionForSlash() throws Exception {
        assertEvaluates("7 / 2", "3.5");
        assertEvaluates("4 / 2", "2.0");
        assertEvaluates("1 / 3", "0.3333333333333333");
    }

    @Test
    void shouldFloorTowardsNegativeInfinityForFloorDivisionAndModulo() throws Exception {
        assertEvaluates("7 // 2", "3");
        assertEvaluates("-7 // 2", "-4");
        assertEvaluates("7 // -2", "-4");
        assertEvaluates("-7 % 3", "2");
        assertEvaluates("7 % -3", "-2");
        assertEvaluates("-7.5 // 2", "-4.0");
        assertEvaluates("-7.5 % 2", "0.5");
        assertEvaluates("5.5 % -2", "-0.5");
    }

    @Test
    void shouldKeepIntegralResultsIntegral() throws Exception {
        assertThat(eval("2 + 3")).isEqualTo(IntNode.valueOf(5));
        assertEvaluates("x * 2", "{\"x\": 21}", "42");
        assertEvaluates("x + 0.5", "{\"x\": 1}", "1.5");
        assertEvaluates("x + 1", "{\"x\": 1.0}", "2.0");
    }

    @Test
    void shouldGrowIntegersBeyondSixtyFourBitsLikePython() throws Exception {
        assertEvaluates("2 ** 64", "18446744073709551616");
        assertEvaluates("9223372036854775807 + 1", "9223372036854775808");
        assertEvaluates("-9223372036854775808 - 1", "-9223372036854775809");
        assertEvaluates("(2 ** 64) // 3", "6148914691236517205");
        assertEvaluates("(2 ** 64) % 10", "6");
        assertEvaluates("3037000500 * 3037000500", "9223372037000250000");
    }

    @Test
    void shouldTreatBooleansAsIntegersInArithmetic() throws Exception {
        assertEvaluates("True + True", "2");
        assertEvaluates("True * 3.0", "3.0");
        assertEvaluates("False - 1", "-1");
    }

    @Test
    void shouldFormatFloatsAsPythonReprDoesWhenConvertedToString() throws Exception {
        assertEvaluates("str(0.1 + 0.2)", "\"0.30000000000000004\"");
        assertEvaluates("str(1e16)", "\"1e+16\"");
        assertEvaluates("str(1e15)", "\"1000000000000000.0\"");
        assertEvaluates("str(0.0001)", "\"0.0001\"");
        assertEvaluates("str(0.00001)", "\"1e-05\"");
        assertEvaluates("str(-2.5)", "\"-2.5\"");
        assertEvaluates("str(3.0)", "\"3.0\"");
        assertEvaluates("str(1.5e300)", "\"1.5e+300\"");
    }

    @Test
    void shouldParseNumericLiteralForms() throws Exception {
        assertEvaluates("1_000_000", "1000000");
        assertEvaluates("0x1F + 0o10 + 0b11", "42");
        assertEvaluates(".5 + 1.", "1.5");
        assertEvaluates("1e3", "1000.0");
    }

    @Test
    void shouldFailOnDivisionByZero() {
        assertFails("1 / 0", "division by zero");
        assertFails("1 // 0", "integer division or modulo by zero");
        assertFails("1 % 0", "integer division or modulo by zero");
        assertFails("1.0 / 0.0", "float division by zero");
        assertFails("0 ** -1", "0.0 cannot be raised to a negative power");
    }

    @Test
    void shouldFailOnOperandsPythonRejects() {
        assertFails("'a' + 1", "unsupported operand types for +: 'str' and 'int'");
        assertFails("[1] - [1]", "unsupported operand types for -: 'list' and 'list'");
        assertFails("None + 1", "unsupported operand types for +: 'NoneType' and 'int'");
        assertFails("-'a'", "bad operand type for unary -: 'str'");
        assertFails("{'a': 1} + {'b': 2}", "unsupported operand types for +: 'dict' and 'dict'");
    }

    @Test
    void shouldFailWhenAFloatResultCannotBeJson() {
        assertFails("1e308 * 10", "out of range");
        assertFails("10.0 ** 400", "out of range");
        assertFails("(-8) ** 0.5", "complex");
    }
}
