package dev.continuum.provider.builtin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.continuum.provider.api.ActionState;
import dev.continuum.provider.api.ActionStatus;
import dev.continuum.provider.client.ActionProviderException;
import org.junit.jupiter.api.Test;

class ExpressionProviderTest {

    @Test
    void shouldPlaceASingleResultUnderResultByDefault() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus status = h.run("expression", "x-1", "{\"expression\": \"x * 2\", \"arguments\": {\"x\": 21}}");

            assertThat(status.status()).isEqualTo(ActionState.SUCCEEDED);
            assertThat(status.details().path("result").asInt()).isEqualTo(42);
        }
    }

    @Test
    void shouldEvaluateSeveralExpressionsIntoTheirResultPaths() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus status = h.run("expression", "x-2", """
                    {"expressions": [
                      {"expression": "x + 5", "arguments": {"x": 6}, "result_path": "$.sum_value.should_be_11"},
                      {"expression": "'foo' + 'bar'", "result_path": "text"},
                      {"expression": "1", "result_path": "text"}
                    ]}""");

            assertThat(status.details().path("sum_value").path("should_be_11").asInt()).isEqualTo(11);
            assertThat(status.details().path("text").asInt()).as("a later result overwrites").isEqualTo(1);
        }
    }

    @Test
    void shouldRejectASyntaxErrorNamingTheExpression() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionProviderException e = h.runFails("expression", "x-3",
                    "{\"expressions\": [{\"expression\": \"1\"}, {\"expression\": \"(1 +\"}]}");

            assertThat(e.httpStatus()).isEqualTo(400);
            assertThat(e.problem().orElseThrow().errors().get(0).pointer()).isEqualTo("/body/expressions/1/expression");
        }
    }

    @Test
    void shouldFailTheActionWhenEvaluationFails() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionStatus status = h.run("expression", "x-4", "{\"expression\": \"missing + 1\"}");

            assertThat(status.status()).isEqualTo(ActionState.FAILED);
            assertThat(status.details().path("error").asText()).contains("missing");
        }
    }

    @Test
    void shouldRejectABodyWithoutAnyExpression() {
        try (BuiltinHarness h = new BuiltinHarness(BuiltinOptions.defaults())) {
            ActionProviderException e = h.runFails("expression", "x-5", "{\"arguments\": {}}");

            assertThat(e.httpStatus()).isEqualTo(400);
        }
    }
}
