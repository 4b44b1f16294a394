package dev.continuum.engine.app.triggers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.continuum.edge.protocol.FileEvent;
import dev.continuum.edge.protocol.FileWatch;
import dev.continuum.edge.protocol.Topics;
import dev.continuum.engine.domain.EngineError.FieldIssue;
import dev.continuum.engine.domain.triggers.Trigger;
import dev.continuum.paths.PathNormalizer;
import dev.continuum.paths.UnsafePathException;

import java.nio.file.FileSystems;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules of the {@code file} source: complete files in a directory of an edge gateway (or of a gateway process
 * beside a datacenter directory). The gateway does the watching ({@link FileWatch}, sent to it retained over MQTT);
 * each {@link FileEvent} it sends is one event here, recorded under the gateway's file id.
 *
 * <pre>{"type": "file", "gateway": "gw-1", "path": "incoming/", "glob": "*.tif", "ignore": ["*.part"],
 *  "complete": {"stable_seconds": 2} | {"marker": ".done"}, "batch": {"files": 50, "window_seconds": 10}}</pre>
 */
public final class FileSources {

    public static final String TYPE = "file";
    static final int MAX_STABLE_SECONDS = 3600;
    static final int MAX_BATCH_FILES = 10_000;
    static final int MAX_PATTERNS = 32;

    private FileSources() {}

    public static boolean isFile(Trigger trigger) {
        return TYPE.equals(trigger.sourceType());
    }

    public static String gateway(Trigger trigger) {
        return trigger.spec().source().path("gateway").asText();
    }

    /** Every problem of a file source, each naming its field. */
    public static void check(JsonNode source, List<FieldIssue> issues) {
        try {
            Topics.checkId(source.path("gateway").asText(null));
        } catch (IllegalArgumentException e) {
            issues.add(new FieldIssue("/source/gateway", "the edge gateway's device id is required: " + e.getMessage()));
        }
        JsonNode path = source.get("path");
        if (path != null && !path.isTextual()) {
            issues.add(new FieldIssue("/source/path", "a directory under the gateway's data directory, e.g. \"incoming/\""));
        } else if (path != null) {
            try {
                PathNormalizer.normalize(path.asText());
            } catch (UnsafePathException e) {
                issues.add(new FieldIssue("/source/path", "outside the gateway's data directory or unsafe: " + e.getMessage()));
            }
        }
        checkPattern(source.get("glob"), "/source/glob", issues);
        JsonNode ignore = source.get("ignore");
        if (ignore != null && (!ignore.isArray() || ignore.size() > MAX_PATTERNS)) {
            issues.add(new FieldIssue("/source/ignore", "a list of up to " + MAX_PATTERNS + " glob patterns, e.g. [\"*.part\"]"));
        } else if (ignore != null) {
            for (int i = 0; i < ignore.size(); i++) {
                checkPattern(ignore.get(i), "/source/ignore/" + i, issues);
            }
        }
        checkComplete(source.get("complete"), issues);
        checkBatch(source.get("batch"), issues);
    }

    private static void checkPattern(JsonNode pattern, String pointer, List<FieldIssue> issues) {
        if (pattern == null) {
            return;
        }
        if (!pattern.isTextual() || pattern.asText().isEmpty() || pattern.asText().contains("..")) {
            issues.add(new FieldIssue(pointer, "a glob pattern such as \"*.tif\" is required"));
            return;
        }
        try {
            FileSystems.getDefault().getPathMatcher("glob:" + pattern.asText());
        } catch (RuntimeException e) {
            issues.add(new FieldIssue(pointer, "not a glob pattern: " + e.getMessage()));
        }
    }

    private static void checkComplete(JsonNode complete, List<FieldIssue> issues) {
        if (complete == null) {
            return; // default: stable for 2 seconds
        }
        boolean stable = complete.has("stable_seconds");
        boolean marker = complete.has("marker");
        if (!complete.isObject() || stable == marker) {
            issues.add(new FieldIssue("/source/complete", "exactly one of {\"stable_seconds\": N} or {\"marker\": \".done\"}"));
        } else if (stable && !inRange(complete.get("stable_seconds"), 0, MAX_STABLE_SECONDS)) {
            issues.add(new FieldIssue("/source/complete/stable_seconds", "whole seconds from 0 to " + MAX_STABLE_SECONDS));
        } else if (marker && !complete.get("marker").asText("").matches("\\.[A-Za-z0-9._-]{1,32}")) {
            issues.add(new FieldIssue("/source/complete/marker", "a file suffix such as \".done\""));
        }
    }

    private static void checkBatch(JsonNode batch, List<FieldIssue> issues) {
        if (batch == null) {
            return;
        }
        if (!batch.isObject() || (!batch.has("files") && !batch.has("window_seconds"))) {
            issues.add(new FieldIssue("/source/batch", "{\"files\": N} and/or {\"window_seconds\": S}"));
            return;
        }
        if (batch.has("files") && !inRange(batch.get("files"), 2, MAX_BATCH_FILES)) {
            issues.add(new FieldIssue("/source/batch/files", "from 2 to " + MAX_BATCH_FILES + " files per run"));
        }
        if (batch.has("window_seconds") && !inRange(batch.get("window_seconds"), 1, MAX_STABLE_SECONDS)) {
            issues.add(new FieldIssue("/source/batch/window_seconds", "whole seconds from 1 to " + MAX_STABLE_SECONDS));
        }
    }

    private static boolean inRange(JsonNode n, int min, int max) {
        return n != null && n.canConvertToInt() && n.isIntegralNumber() && n.asInt() >= min && n.asInt() <= max;
    }

    /** What the gateway is told to watch for this trigger (its watch id is the trigger's id). */
    public static FileWatch watchOf(Trigger trigger) {
        JsonNode s = trigger.spec().source();
        JsonNode complete = s.path("complete");
        List<String> ignore = new ArrayList<>();
        s.path("ignore").forEach(p -> ignore.add(p.asText()));
        String path = s.has("path") ? PathNormalizer.normalize(s.get("path").asText()).relative() : "";
        return new FileWatch(trigger.id().toString(), path, s.path("glob").asText("*"), ignore,
                complete.has("marker") ? 0 : complete.path("stable_seconds").asInt(2),
                complete.has("marker") ? complete.get("marker").asText() : null,
                s.path("batch").path("files").asInt(0), s.path("batch").path("window_seconds").asInt(0));
    }

    /** The key an event is recorded under: the gateway and its file id (path + size + mtime + hash) or batch id. */
    public static String dedupKey(String gateway, FileEvent event) {
        return "file:" + gateway + ":" + event.eventId();
    }

    /**
     * The event a template reads: {@code endpoint} (the gateway's storage endpoint, named after it), {@code path},
     * {@code size}, {@code mtime}, {@code sha256} of the file (the first of a batch), and {@code files}, all of them.
     */
    public static JsonNode payload(String gateway, FileEvent event) {
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("gateway", gateway);
        out.put("endpoint", gateway);
        out.put("watch_id", event.watchId());
        out.put("count", event.files().size());
        var files = out.putArray("files");
        for (FileEvent.WatchedFile f : event.files()) {
            ObjectNode file = files.addObject();
            file.put("path", f.path());
            file.put("size", f.size());
            file.put("mtime", Instant.ofEpochMilli(f.mtimeMs()).toString());
            file.put("sha256", f.sha256());
        }
        if (!event.files().isEmpty()) {
            out.setAll((ObjectNode) files.get(0).deepCopy());
        }
        out.put("detected_at", Instant.ofEpochMilli(event.detectedAtMs()).toString());
        return out;
    }
}
