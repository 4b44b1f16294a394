package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.flow.model.Catcher;
import dev.continuum.flow.model.DataPaths;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.MapState;
import dev.continuum.flow.model.Retrier;
import dev.continuum.flow.model.State;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A Map state: ItemsPath, the flow run per item (Iterator or ItemProcessor), MaxConcurrency, ItemSelector. */
final class MapReader {

    private static final Set<String> FIELDS = Set.of("Type", "Comment", "ItemsPath", "Iterator",
            "ItemProcessor", "MaxConcurrency", "InputPath", "Parameters", "ItemSelector", "ResultPath", "Retry",
            "Catch", "Next", "End");

    private MapReader() {
    }

    static State read(StateFields fields, ErrorHandlerFields handlers, FlowReader flows, StateNode state) {
        StateReading reading = StateReading.open(fields, state, FIELDS, "a Map state");
        Issues issues = reading.issues();
        JsonNode node = state.node();
        String pointer = state.pointer();
        String itemsPath = node.has("ItemsPath")
                ? fields.path(node.get("ItemsPath"), pointer + "/ItemsPath", false, true).orElse(null)
                : DataPaths.WHOLE_DOCUMENT;
        FlowDefinition iterator = null;
        if (node.has("Iterator") == node.has("ItemProcessor")) {
            issues.add(pointer, "A Map state needs exactly one of Iterator or ItemProcessor: the flow run per item.");
        } else {
            String field = node.has("Iterator") ? "Iterator" : "ItemProcessor";
            JsonNode processor = node.get(field);
            if (processor.isObject() && processor.has("ProcessorConfig")) {
                processor = processor.deepCopy();
                ((ObjectNode) processor).remove("ProcessorConfig");
            }
            iterator = flows.readFlow(processor, pointer + "/" + field,
                    field + " of Map state '" + state.name() + "'");
        }
        int maxConcurrency = 0;
        JsonNode concurrency = node.get("MaxConcurrency");
        if (concurrency != null) {
            if (!concurrency.isIntegralNumber() || concurrency.asInt() < 0) {
                issues.add(pointer + "/MaxConcurrency", "MaxConcurrency must be a whole number, 0 (no limit) or more.");
            } else {
                maxConcurrency = concurrency.asInt();
            }
        }
        if (node.has("Parameters") && node.has("ItemSelector")) {
            issues.add(pointer + "/ItemSelector", "Give either ItemSelector or Parameters, not both.");
        }
        Optional<JsonNode> selector = node.has("ItemSelector")
                ? fields.template(node.get("ItemSelector"), pointer + "/ItemSelector", false, "ItemSelector")
                : fields.parameters(node, pointer, false);
        DataPaths paths = fields.dataPaths(node, pointer);
        List<Retrier> retry = handlers.retriers(node, pointer);
        List<Catcher> catchers = handlers.catchers(state);
        Optional<String> next = fields.transition(state);
        if (reading.foundIssues() || iterator == null) {
            return null;
        }
        return new MapState(state.name(), state.comment(), itemsPath, iterator, maxConcurrency, paths, selector, retry,
                catchers, next);
    }
}
