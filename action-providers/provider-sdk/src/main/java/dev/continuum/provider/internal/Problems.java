package dev.continuum.provider.internal;

import dev.continuum.provider.api.Problem;
import java.util.List;

/** The problem types this framework answers with; each {@code type} is a stable identifier. */
public final class Problems {

    static final String BASE = Problem.TYPE_BASE;

    private Problems() {}

    static ProblemException invalidRequest(String detail, List<Problem.FieldError> errors) {
        return new ProblemException(Problem.of(400, "invalid-request", "Invalid request", detail, errors));
    }

    static ProblemException invalidRequest(String pointer, String message) {
        return invalidRequest(message, List.of(new Problem.FieldError(pointer, message)));
    }

    static ProblemException unauthorized(String detail) {
        return new ProblemException(Problem.of(401, "unauthorized", "Unauthorized", detail, List.of()));
    }

    static ProblemException forbidden(String detail) {
        return new ProblemException(Problem.of(403, "forbidden", "Forbidden", detail, List.of()));
    }

    static ProblemException actionNotFound(String actionId) {
        return new ProblemException(Problem.of(404, "action-not-found", "Action not found",
                "No action " + actionId + " is known here; it may never have existed or was released.", List.of()));
    }

    static ProblemException notFound(String path) {
        return new ProblemException(Problem.of(404, "not-found", "Not found",
                "Nothing is served at " + path, List.of()));
    }

    static ProblemException unavailable(String detail) {
        return new ProblemException(Problem.of(503, "provider-stopping", "Provider stopping", detail, List.of()));
    }

    static ProblemException conflict(String detail) {
        return new ProblemException(Problem.of(409, "conflict", "Conflict", detail, List.of()));
    }

    /** A refused caller: 401 (who are you?), 403 (not you) or 503 (the identity provider cannot tell now). */
    public static Problem rejected(dev.continuum.provider.server.CallerRejectedException refused) {
        return switch (refused.httpStatus()) {
            case 401 -> unauthorized(refused.getMessage()).problem();
            case 403 -> forbidden(refused.getMessage()).problem();
            default -> Problem.of(refused.httpStatus(), "identity-provider-unavailable",
                    "Identity provider unavailable", refused.getMessage(), List.of());
        };
    }

    static Problem ofStatus(int status, String detail) {
        String title = switch (status) {
            case 400 -> "Invalid request";
            case 404 -> "Not found";
            case 405 -> "Method not allowed";
            case 413 -> "Request body too large";
            case 415 -> "Unsupported media type";
            default -> status >= 500 ? "Internal error" : "Request failed";
        };
        String slug = status >= 500 ? "internal" : "http-" + status;
        return Problem.of(status, slug, title, detail, List.of());
    }
}
