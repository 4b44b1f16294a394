package dev.continuum.provider.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.continuum.provider.api.ActionRequest;
import dev.continuum.provider.api.Problem;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a /run document field by field so that every mistake is reported with its pointer,
 * all at once, instead of the first Jackson exception.
 */
final class RequestParser {

    private RequestParser() {}

    static ActionRequest parse(JsonNode doc) {
        if (doc == null || !doc.isObject()) {
            throw Problems.invalidRequest("", "The request must be a JSON object with request_id and body.");
        }
        List<Problem.FieldError> errors = new ArrayList<>();
        String requestId = requiredText(doc, "request_id", errors);
        JsonNode body = doc.get("body");
        if (body == null || !body.isObject()) {
            errors.add(new Problem.FieldError("/body", "body is required and must be a JSON object"));
        }
        String label = optionalText(doc, "label", errors);
        List<String> tags = optionalStrings(doc, "tags", errors);
        List<String> manageBy = optionalStrings(doc, "manage_by", errors);
        List<String> monitorBy = optionalStrings(doc, "monitor_by", errors);
        String releaseAfter = optionalText(doc, "release_after", errors);
        if (releaseAfter != null && IsoDurations.parse(releaseAfter).isEmpty()) {
            errors.add(new Problem.FieldError("/release_after", "must be an ISO-8601 duration such as P30D"));
        }
        Instant deadline = null;
        String deadlineText = optionalText(doc, "deadline", errors);
        if (deadlineText != null) {
            try {
                deadline = OffsetDateTime.parse(deadlineText).toInstant();
            } catch (DateTimeParseException e) {
                errors.add(new Problem.FieldError("/deadline", "must be an RFC 3339 date-time such as 2030-01-01T00:00:00Z"));
            }
        }
        if (!errors.isEmpty()) {
            throw Problems.invalidRequest(summary(errors), errors);
        }
        return new ActionRequest(requestId, body, label, tags, manageBy, monitorBy, releaseAfter, deadline);
    }

    static String summary(List<Problem.FieldError> errors) {
        Problem.FieldError first = errors.get(0);
        String more = errors.size() > 1 ? " (and " + (errors.size() - 1) + " more)" : "";
        return first.pointer() + ": " + first.message() + more;
    }

    private static String requiredText(JsonNode doc, String field, List<Problem.FieldError> errors) {
        JsonNode value = doc.get(field);
        if (value == null || !value.isTextual() || value.asText().isBlank()) {
            errors.add(new Problem.FieldError("/" + field, field + " is required and must be a non-empty string"));
            return null;
        }
        return value.asText();
    }

    private static String optionalText(JsonNode doc, String field, List<Problem.FieldError> errors) {
        JsonNode value = doc.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isTextual()) {
            errors.add(new Problem.FieldError("/" + field, field + " must be a string"));
            return null;
        }
        return value.asText();
    }

    private static List<String> optionalStrings(JsonNode doc, String field, List<Problem.FieldError> errors) {
        JsonNode value = doc.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isArray()) {
            errors.add(new Problem.FieldError("/" + field, field + " must be an array of strings"));
            return null;
        }
        List<String> out = new ArrayList<>();
        for (int i = 0; i < value.size(); i++) {
            if (!value.get(i).isTextual()) {
                errors.add(new Problem.FieldError("/" + field + "/" + i, "must be a string"));
            } else {
                out.add(value.get(i).asText());
            }
        }
        return out;
    }
}
