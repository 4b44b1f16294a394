package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * One state as written, handed to the reader of its kind.
 *
 * @param references where the reader adds every transition the state makes (Next, Default, Catch)
 */
record StateNode(String name, JsonNode node, String pointer, Optional<String> comment,
                 List<FlowReader.Reference> references) {
}
