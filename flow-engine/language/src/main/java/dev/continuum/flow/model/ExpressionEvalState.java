package dev.continuum.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * Evaluates its Parameters template (where {@code .=} keys are expressions) and places the result
 * at ResultPath. Parameters of JSON null evaluate to null (Globus accepts {@code "Parameters": null}).
 */
public record ExpressionEvalState(String name, Optional<String> comment, Optional<JsonNode> parameters,
                                  String resultPath, Optional<String> next) implements State {
}
