package dev.continuum.cli.client;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * An RFC 9457 problem as the engine sends it: {@code type}, {@code title}, {@code status}, {@code detail} and the
 * offending fields in {@code errors}.
 */
public record Problem(String type, String title, int status, String detail, List<FieldIssue> errors) {

    /** One offending field: RFC 6901 pointer into the request body and a plain sentence. */
    public record FieldIssue(String pointer, String message) {}

    public Problem {
        errors = List.copyOf(errors);
    }

    /**
     * Reads a problem body; a body that is not problem JSON (a proxy's HTML page, say) still yields a problem whose
     * detail is the start of that body, so the user sees what came back.
     */
    public static Problem from(int status, JsonNode body, String rawBody) {
        if (body == null || !body.isObject() || !body.hasNonNull("title")) {
            String text = rawBody == null ? "" : rawBody.strip();
            String detail = text.isEmpty() ? "The engine answered HTTP " + status + " without a body."
                    : text.length() > 300 ? text.substring(0, 300) + "..." : text;
            return new Problem(null, "HTTP " + status, status, detail, List.of());
        }
        List<FieldIssue> issues = new ArrayList<>();
        body.path("errors").forEach(e -> issues.add(new FieldIssue(e.path("pointer").asText(""), e.path("message").asText(""))));
        return new Problem(body.path("type").asText(null), body.path("title").asText(), body.path("status").asInt(status),
                body.path("detail").asText(""), issues);
    }

    /** The text the CLI shows: {@code title: detail}, then one {@code pointer: message} line per issue. */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        lines.add(detail == null || detail.isBlank() ? title : title + ": " + detail);
        for (FieldIssue issue : errors) {
            String line = IssueText.of(issue.pointer(), issue.message());
            // A single-field refusal repeats its only issue as the detail; saying it twice helps nobody.
            if (!line.equals(detail)) {
                lines.add("  " + line);
            }
        }
        return lines;
    }
}
