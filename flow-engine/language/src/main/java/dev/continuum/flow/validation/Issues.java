package dev.continuum.flow.validation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;

/** Collects issues while a definition is read, so that all of them are reported at once. */
final class Issues {

    private final List<ValidationIssue> found = new ArrayList<>();

    void add(String pointer, String message) {
        found.add(new ValidationIssue(pointer, message));
    }

    int count() {
        return found.size();
    }

    List<ValidationIssue> all() {
        return List.copyOf(found);
    }

    /** Reports every field of {@code object} that is not in {@code allowed}. */
    void unknownFields(JsonNode object, String pointer, Set<String> allowed, String what) {
        Iterator<String> names = object.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!allowed.contains(name)) {
                add(pointer + "/" + ValidationIssue.token(name), "'" + name + "' is not a field of " + what
                        + "; allowed fields are " + String.join(", ", sorted(allowed)) + ".");
            }
        }
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }
}
