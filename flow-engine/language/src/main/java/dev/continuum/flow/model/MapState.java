package dev.continuum.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * Runs {@code iterator} once per item of the array at ItemsPath, at most {@code maxConcurrency} at a
 * time (0 = no limit), and places the array of outputs, in item order, at ResultPath. Each item's
 * input is the item itself, or the {@code itemSelector} template evaluated with
 * {@code $$.Map.Item.Value} and {@code $$.Map.Item.Index}. Not in Globus Flows; as in the Amazon States Language.
 */
public record MapState(String name, Optional<String> comment, String itemsPath, FlowDefinition iterator,
                       int maxConcurrency, DataPaths paths, Optional<JsonNode> itemSelector, List<Retrier> retry,
                       List<Catcher> catchers, Optional<String> next) implements State {

    public MapState {
        retry = List.copyOf(retry);
        catchers = List.copyOf(catchers);
    }
}
