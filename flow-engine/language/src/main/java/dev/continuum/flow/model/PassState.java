package dev.continuum.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * Places data without calling anyone: {@code result} when given, else the Parameters template
 * evaluated, else the state input, at ResultPath.
 */
public record PassState(String name, Optional<String> comment, DataPaths paths, Optional<JsonNode> parameters,
                        Optional<JsonNode> result, Optional<String> next) implements State {
}
