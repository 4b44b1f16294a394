package dev.continuum.provider.internal;

import dev.continuum.provider.api.Problem;
import java.util.List;

/** The problem types this framework answers with; each {@code type} is a stable identifier. */
public final class Problems {

    static final String BASE = "https://continuum.dev/problems/";

    private Problems() {}

    static ProblemException invalidRequest(String detail, List<Problem.FieldError> errors) {
        return new ProblemException(new Problem(BASE + "invalid-request", "Invalid request", 400, detail, errors));
    }

    static ProblemException invalidRequest(String pointer, String message) {
        return invalidRequest(message, List.of(new Problem.FieldError(pointer, message)));
    }

    static ProblemException unauthorized(String detail) {
        return new ProblemException(new Problem(BASE + "unauthorized", "Unauthorized", 401, detail, List.of()));
    }

    static ProblemException forbidden(String detail) {
        return new ProblemException(new Problem(BASE + "forbidden", "Forbidden", 403, detail, List.of()));
    }

    static ProblemException actionNotFound(String actionId) {
        return new ProblemException(new Problem(BASE + "action-not-found", "Action not found", 404,
                "No action " + actionId + " is known here; it may never have existed or was released.", List.of()));
    }

    static ProblemException notFound(String path) {
        return new ProblemException(new Problem(BASE + "not-found", "Not found", 404,
                "Nothing is served at " + path, List.of()));
    }

    static ProblemException unavailable(String detail) {
        return new ProblemException(new Problem(BASE + "provider-stopping", "Provider stopping", 503, detail, List.of()));
    }

    static ProblemException conflict(String detail) {
        return new ProblemException(new Problem(BASE + "conflict", "Conflict", 409, detail, List.of()));
    }

    /** A refused caller: 401 (who are you?), 403 (not you) or 503 (the identity provider cannot tell now). */
    public static Problem rejected(dev.continuum.provider.server.CallerRejectedException refused) {
        return switch (refused.httpStatus()) {
            case 401 -> unauthorized(refused.getMessage()).problem();
            case 403 -> forbidden(refused.getMessage()).problem();
            default -> new Problem(BASE + "identity-provider-unavailable", "Identity provider unavailable",
                    refused.httpStatus(), refused.getMessage(), List.of());
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
        return new Problem(BASE + slug, title, status, detail, List.of());
    }
}
