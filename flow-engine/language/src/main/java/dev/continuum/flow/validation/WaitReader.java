package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.data.Timestamps;
import dev.continuum.flow.model.State;
import dev.continuum.flow.model.WaitState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A Wait state: exactly one of Seconds, Timestamp, SecondsPath or TimestampPath; optional InputPath and OutputPath. */
final class WaitReader {

    private static final Set<String> FIELDS =
            Set.of("Type", "Comment", "Seconds", "Timestamp", "SecondsPath", "TimestampPath", "InputPath",
                    "OutputPath", "Next", "End");

    private WaitReader() {
    }

    static State read(StateFields fields, StateNode state) {
        StateReading reading = StateReading.open(fields, state, FIELDS, "a Wait state");
        Issues issues = reading.issues();
        List<String> given = new ArrayList<>();
        for (String field : List.of("Seconds", "Timestamp", "SecondsPath", "TimestampPath")) {
            if (state.node().has(field)) {
                given.add(field);
            }
        }
        WaitState.Until until = null;
        if (given.size() != 1) {
            issues.add(state.pointer(), "A Wait state needs exactly one of Seconds, Timestamp, SecondsPath or TimestampPath"
                    + (given.isEmpty() ? "; it has none." : "; it has " + String.join(" and ", given) + "."));
        } else {
            until = until(fields, given.get(0), state.node(), state.pointer());
        }
        String inputPath = fields.inputPath(state.node(), state.pointer());
        String outputPath = fields.outputPath(state.node(), state.pointer());
        Optional<String> next = fields.transition(state);
        if (reading.foundIssues() || until == null) {
            return null;
        }
        return new WaitState(state.name(), state.comment(), inputPath, outputPath, until, next);
    }

    private static WaitState.Until until(StateFields fields, String field, JsonNode node, String pointer) {
        JsonNode value = node.get(field);
        String fieldPointer = pointer + "/" + field;
        switch (field) {
            case "Seconds" -> {
                if (!value.isIntegralNumber() || value.asLong() < 0) {
                    fields.issues().add(fieldPointer, "Seconds must be a whole number, 0 or more.");
                    return null;
                }
                return new WaitState.Seconds(value.asLong());
            }
            case "Timestamp" -> {
                Optional<Instant> at = Timestamps.parse(value);
                if (at.isEmpty()) {
                    fields.issues().add(fieldPointer, "Timestamp must be an RFC 3339 time such as 2024-08-18T17:33:00Z.");
                    return null;
                }
                return new WaitState.Timestamp(at.get());
            }
            case "SecondsPath" -> {
                return fields.path(value, fieldPointer, false, true).map(WaitState.SecondsPath::new).orElse(null);
            }
            default -> {
                return fields.path(value, fieldPointer, false, true).map(WaitState.TimestampPath::new).orElse(null);
            }
        }
    }
}
