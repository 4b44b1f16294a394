package dev.continuum.engine.domain;

import java.util.List;

/** A refusal the caller can act on; adapters turn it into an RFC 9457 problem. */
public final class EngineError extends RuntimeException {

    public enum Kind { INVALID, NOT_FOUND, CONFLICT, TOO_LARGE }

    /** One offending field: RFC 6901 pointer into the request body, and a plain sentence. */
    public record FieldIssue(String pointer, String message) {}

    private final Kind kind;
    private final String title;
    private final List<FieldIssue> issues;

    public EngineError(Kind kind, String title, String detail, List<FieldIssue> issues) {
        super(detail);
        this.kind = kind;
        this.title = title;
        this.issues = List.copyOf(issues);
    }

    public static EngineError notFound(String what, String id) {
        return new EngineError(Kind.NOT_FOUND, what + " not found", "No " + what.toLowerCase() + " with id '" + id + "' exists.", List.of());
    }

    public static EngineError invalid(String title, String detail, List<FieldIssue> issues) {
        return new EngineError(Kind.INVALID, title, detail, issues);
    }

    public static EngineError invalidField(String pointer, String message) {
        return new EngineError(Kind.INVALID, "Invalid request", pointer + ": " + message, List.of(new FieldIssue(pointer, message)));
    }

    public static EngineError conflict(String title, String detail) {
        return new EngineError(Kind.CONFLICT, title, detail, List.of());
    }

    public Kind kind() { return kind; }
    public String title() { return title; }
    public List<FieldIssue> issues() { return issues; }
}
