package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.flow.model.FlowDefinition;
import dev.continuum.flow.model.State;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one flow (the top level, a Parallel branch or a Map iterator): its fields, its states, and
 * the graph they form (undefined targets, unreachable states, states with no way to an end).
 */
final class FlowReader {

    private static final Set<String> FLOW_FIELDS = Set.of("StartAt", "States", "Comment");

    private final Issues issues;

    FlowReader(Issues issues) {
        this.issues = issues;
    }

    /** Returns the flow, or null when it is too broken to build (issues say why). */
    FlowDefinition readFlow(JsonNode node, String pointer, String what) {
        if (node == null || !node.isObject()) {
            issues.add(pointer, capitalize(what) + " must be a JSON object with StartAt and States.");
            return null;
        }
        int before = issues.count();
        issues.unknownFields(node, pointer, FLOW_FIELDS, what);
        JsonNode comment = node.get("Comment");
        if (comment != null && !comment.isTextual() && !comment.isNull()) {
            issues.add(pointer + "/Comment", "Comment must be a string.");
        }
        JsonNode startAt = node.get("StartAt");
        if (startAt == null) {
            issues.add(pointer + "/StartAt", "'StartAt' is a required property: name the state the flow starts at.");
        } else if (!startAt.isTextual()) {
            issues.add(pointer + "/StartAt", "StartAt must be the name of a state (a string).");
        }
        JsonNode statesNode = node.get("States");
        Map<String, State> states = new LinkedHashMap<>();
        Map<String, List<Reference>> references = new LinkedHashMap<>();
        if (statesNode == null) {
            issues.add(pointer + "/States", "'States' is a required property: an object of named states.");
        } else if (!statesNode.isObject()) {
            issues.add(pointer + "/States", "States must be an object whose keys are state names.");
        } else if (statesNode.isEmpty()) {
            issues.add(pointer + "/States", "States must define at least one state.");
        } else {
            StateReader reader = new StateReader(issues, this);
            Iterator<Map.Entry<String, JsonNode>> fields = statesNode.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> field = fields.next();
                String name = field.getKey();
                String statePointer = pointer + "/States/" + ValidationIssue.token(name);
                List<Reference> out = new ArrayList<>();
                State state = reader.read(name, field.getValue(), statePointer, out);
                references.put(name, out);
                if (state != null) {
                    states.put(name, state);
                }
            }
        }
        if (statesNode != null && statesNode.isObject() && !statesNode.isEmpty()) {
            checkGraph(startAt != null && startAt.isTextual() ? startAt.asText() : null, statesNode, references,
                    states.keySet(), pointer);
        }
        if (issues.count() > before || startAt == null || !startAt.isTextual()) {
            return null;
        }
        return new FlowDefinition(startAt.asText(), states,
                comment == null || comment.isNull() ? Optional.empty() : Optional.of(comment.asText()));
    }

    /** A transition from one state to another, with the pointer of the field that names the target. */
    record Reference(String target, String pointer) {
    }

    private void checkGraph(String startAt, JsonNode statesNode, Map<String, List<Reference>> references,
                            Set<String> wellFormed, String pointer) {
        Set<String> defined = new HashSet<>();
        statesNode.fieldNames().forEachRemaining(defined::add);
        if (startAt != null && !defined.contains(startAt)) {
            issues.add(pointer + "/StartAt", "StartAt refers to '" + startAt + "', which is not defined in States.");
        }
        references.forEach((from, refs) -> refs.forEach(ref -> {
            if (!defined.contains(ref.target())) {
                issues.add(ref.pointer(), "'" + ref.target() + "' is referenced but not defined in States.");
            }
        }));
        if (startAt == null) {
            return; // without a start, reachability says nothing useful
        }
        Set<String> reachable = reachableFrom(startAt, references, defined);
        for (String name : defined) {
            if (!reachable.contains(name)) {
                issues.add(pointer + "/States/" + ValidationIssue.token(name), "State '" + name
                        + "' is defined but not referenced by StartAt or by any state reachable from it.");
            }
        }
        Set<String> canEnd = statesThatCanEnd(statesNode, references, defined, wellFormed);
        for (String name : defined) {
            if (reachable.contains(name) && !canEnd.contains(name)) {
                issues.add(pointer + "/States/" + ValidationIssue.token(name), "State '" + name
                        + "' has no path to an end: every route from it loops without reaching End or a Fail state.");
            }
        }
    }

    private static Set<String> reachableFrom(String startAt, Map<String, List<Reference>> references,
                                             Set<String> defined) {
        Set<String> seen = new HashSet<>();
        if (startAt == null || !defined.contains(startAt)) {
            return seen;
        }
        Deque<String> todo = new ArrayDeque<>(List.of(startAt));
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (seen.add(name)) {
                for (Reference ref : references.getOrDefault(name, List.of())) {
                    if (defined.contains(ref.target())) {
                        todo.push(ref.target());
                    }
                }
            }
        }
        return seen;
    }

    /** States from which some route reaches End: true, a Fail state, or a target that is not defined. */
    private static Set<String> statesThatCanEnd(JsonNode statesNode, Map<String, List<Reference>> references,
                                                Set<String> defined, Set<String> wellFormed) {
        Map<String, List<String>> incoming = new HashMap<>();
        references.forEach((from, refs) -> refs.forEach(ref ->
                incoming.computeIfAbsent(ref.target(), k -> new ArrayList<>()).add(from)));
        Deque<String> todo = new ArrayDeque<>();
        // a target that is not defined has its own issue; the route to it dangles, it does not loop
        incoming.keySet().stream().filter(target -> !defined.contains(target)).forEach(todo::push);
        for (String name : defined) {
            JsonNode state = statesNode.get(name);
            // a broken state already has its own issue; counting it as an end avoids a second, vaguer one
            boolean terminal = !wellFormed.contains(name)
                    || "Fail".equals(state.path("Type").asText())
                    || state.path("End").asBoolean(false);
            if (terminal) {
                todo.push(name);
            }
        }
        Set<String> canEnd = new HashSet<>();
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (canEnd.add(name)) {
                incoming.getOrDefault(name, List.of()).forEach(todo::push);
            }
        }
        return canEnd;
    }

    static String capitalize(String text) {
        return text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    }
}
