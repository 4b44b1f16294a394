package dev.continuum.engine.app;

import dev.continuum.engine.domain.EngineError;

import java.util.List;
import java.util.Optional;

/** What a person sets on a run (label, tags, its managers and monitors): limits and Globus' tag normalisation. */
final class RunMetadata {

    static final int MAX_LABEL = 128;
    static final int MAX_TAGS = 64;
    static final int MAX_TAG = 128;
    static final int MAX_PRINCIPALS = 100;

    private RunMetadata() {}

    static void check(RunService.RunChange change) {
        if (change.label() != null && (change.label().isBlank() || change.label().length() > MAX_LABEL)) {
            throw EngineError.invalidField("/label", "A label has 1 to " + MAX_LABEL + " characters.");
        }
        if (change.tags() != null) {
            if (change.tags().size() > MAX_TAGS) {
                throw EngineError.invalidField("/tags", "A run may have at most " + MAX_TAGS + " tags.");
            }
            for (int i = 0; i < change.tags().size(); i++) {
                String tag = change.tags().get(i);
                if (tag == null || tag.isBlank() || tag.length() > MAX_TAG) {
                    throw EngineError.invalidField("/tags/" + i, "A tag has 1 to " + MAX_TAG + " characters.");
                }
            }
        }
        principals("/run_managers", change.runManagers());
        principals("/run_monitors", change.runMonitors());
    }

    private static void principals(String pointer, List<String> principals) {
        if (principals == null) {
            return;
        }
        if (principals.size() > MAX_PRINCIPALS) {
            throw EngineError.invalidField(pointer, "At most " + MAX_PRINCIPALS + " principals.");
        }
        for (int i = 0; i < principals.size(); i++) {
            if (principals.get(i) == null || principals.get(i).isBlank()) {
                throw EngineError.invalidField(pointer + "/" + i, "A principal is a user name, a group or 'public'.");
            }
        }
    }

    /** As Globus does: leading and trailing whitespace stripped, any run of whitespace made one space. */
    static List<String> tags(List<String> tags) {
        return Optional.ofNullable(tags).orElse(List.of()).stream().map(t -> t.strip().replaceAll("\\s+", " ")).toList();
    }

    static List<String> principals(List<String> principals) {
        return Optional.ofNullable(principals).orElse(List.of()).stream().map(String::strip).distinct().toList();
    }
}
