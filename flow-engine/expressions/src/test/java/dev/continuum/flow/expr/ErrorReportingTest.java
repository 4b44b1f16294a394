package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

class ErrorReportingTest {

    @Test
    void shouldNameTheUndefinedVariableAndItsPosition() {
        ExpressionException e = catchThrowableOfType(ExpressionException.class,
                () -> Expressions.evaluate("1 + foo", null));
        assertThat(e.getMessage()).isEqualTo("name 'foo' is not defined at position 4");
        assertThat(e.position()).isEqualTo(4);
        assertThat(e.reason()).isEqualTo("name 'foo' is not defined");
    }

    @Test
    void shouldPointAtTheOperatorForTypeErrors() {
        ExpressionException e = catchThrowableOfType(ExpressionException.class,
                () -> Expressions.evaluate("'a' + 1", null));
        assertThat(e.getMessage()).isEqualTo("unsupported operand types for +: 'str' and 'int' at position 4");
    }

    @Test
    void shouldPointAtTheInnermostFailingPart() {
        ExpressionException e = catchThrowableOfType(ExpressionException.class,
                () -> Expressions.evaluate("[x.name for x in xs]", ExpressionTestSupport.json("{\"xs\": [{\"n\": 1}]}")));
        assertThat(e.getMessage()).isEqualTo("'dict' object has no key or attribute 'name' at position 3");
    }

    @Test
    void shouldReportSyntaxErrorsWithoutEvaluating() {
        assertThat(Expressions.checkSyntax("state.i + step")).isEmpty();
        assertThat(Expressions.checkSyntax("[x for x in xs if x]")).isEmpty();
        assertThat(Expressions.checkSyntax("1 +")).get().extracting(ExpressionException::getMessage)
                .isEqualTo("unexpected end of expression at position 3");
        assertThat(Expressions.checkSyntax("(1, 2")).get().extracting(ExpressionException::getMessage)
                .isEqualTo("expected ')' but found end of expression at position 5");
        assertThat(Expressions.checkSyntax("")).get().extracting(ExpressionException::getMessage)
                .isEqualTo("expression is empty at position 0");
        assertThat(Expressions.checkSyntax("a b")).get().extracting(ExpressionException::position).isEqualTo(2);
        assertThat(Expressions.checkSyntax("'open")).get().extracting(ExpressionException::getMessage)
                .isEqualTo("unterminated string literal at position 0");
    }

    @Test
    void shouldRejectPythonFeaturesOutsideTheSandbox() {
        assertFails("lambda x: x", "'lambda' is not supported in expressions");
        assertFails("f'{x}'", "f-strings are not supported");
        assertFails("{1, 2}", "set literals are not supported");
        assertFails("1 | 2", "operator '|' is not supported");
        assertFails("x.__class__", "name 'x' is not defined");
        assertFails("''.__class__", "'str' object has no attribute '__class__'");
        assertFails("len.__self__", "name 'len' is not defined");
        assertFails("[len][0](1)", "only functions and methods can be called");
        assertFails("'a'.upper()()", "only functions and methods can be called");
        assertFails("__import__('os')", "function '__import__' is not defined");
        assertFails("open('/etc/passwd')", "function 'open' is not defined");
        assertFails("x = 1", "unexpected '='");
        assertFails("1 $ 2", "unexpected character '$'");
        assertFails("007", "leading zeros in integer literals are not permitted");
    }

    @Test
    void shouldRefuseNamesThatAreNotAJsonObject() {
        assertFails(() -> Expressions.evaluate("1", ExpressionTestSupport.json("[1]")),
                "must be a JSON object, not list");
    }

    @Test
    void shouldSayWhenAVariableIsCalledAsAFunction() {
        assertFails(() -> Expressions.evaluate("f(1)", ExpressionTestSupport.json("{\"f\": 1}")), "'f' is not a function");
    }
}
