package dev.continuum.engine.durability;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The echo provider's record of side effects: one {@code request_id<TAB>action_id} line per new
 * action, fsynced before the provider answers; a re-sent request_id adds no line.
 */
record EffectsLog(Path file) {

    List<String> lines() {
        if (!Files.exists(file)) {
            return List.of();
        }
        try {
            // A line still being written has no newline yet; only whole lines count.
            String text = Files.readString(file, StandardCharsets.UTF_8);
            int end = text.lastIndexOf('\n');
            return end < 0 ? List.of() : text.substring(0, end).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read effects log " + file, e);
        }
    }

    int size() {
        return lines().size();
    }

    /** How often each request_id took effect. */
    Map<String, Integer> effectsByRequestId() {
        Map<String, Integer> counts = new TreeMap<>();
        for (String line : lines()) {
            String requestId = line.substring(0, line.indexOf('\t'));
            counts.merge(requestId, 1, Integer::sum);
        }
        return counts;
    }
}
