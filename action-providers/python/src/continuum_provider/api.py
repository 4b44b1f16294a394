"""The protocol's documents: the introspection description, /run requests, problems, times and durations."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone

API_VERSION = "1.0"
PROBLEMS = "https://continuum.dev/problems/"
DEFAULT_RELEASE_AFTER = "P30D"


def describe(title, *, scope=None, subtitle=None, description=None, input_schema=None, keywords=(),
             visible_to=("public",), runnable_by=("all_authenticated_users",), administered_by=(),
             admin_contact="admin@localhost", synchronous=False, log_supported=True, maximum_deadline="P30D"):
    """The introspection document (``GET /``) with the Globus defaults the Java SDK's builder fills.

    ``scope`` is the scope a bearer token must carry (``globus_auth_scope``); ``input_schema`` is enforced
    before :meth:`ActionProvider.start` is called.
    """
    doc = {
        "types": ["Action"], "api_version": API_VERSION, "globus_auth_scope": scope, "title": title,
        "subtitle": subtitle, "description": description, "keywords": list(keywords),
        "visible_to": list(visible_to), "runnable_by": list(runnable_by), "administered_by": list(administered_by),
        "admin_contact": admin_contact, "synchronous": synchronous, "log_supported": log_supported,
        "maximum_deadline": maximum_deadline, "input_schema": input_schema,
    }
    return {k: v for k, v in doc.items() if v is not None}


@dataclass(frozen=True)
class ActionRequest:
    """A parsed ``POST /run`` document."""
    request_id: str
    body: dict
    label: str | None = None
    tags: list | None = None
    manage_by: list | None = None
    monitor_by: list | None = None
    release_after: str | None = None
    deadline: str | None = None

    def to_json(self):
        return {k: v for k, v in self.__dict__.items() if v is not None}

    @staticmethod
    def from_json(doc):
        return ActionRequest(**{k: doc.get(k) for k in ActionRequest.__dataclass_fields__})


class ProblemError(Exception):
    """An RFC 9457 problem document answered instead of a result; ``errors`` hold ``{"pointer", "message"}``."""

    def __init__(self, status, slug, title, detail, errors=()):
        super().__init__(detail)
        self.status, self.slug, self.title, self.detail, self.errors = status, slug, title, detail, list(errors)

    def document(self):
        return {"type": PROBLEMS + self.slug, "title": self.title, "status": self.status, "detail": self.detail,
                "errors": self.errors}


class InvalidInput(Exception):
    """Raised by a provider's ``start`` for a rule its schema cannot express: 400, the action is not kept."""

    def __init__(self, pointer, message):
        super().__init__(message)
        self.pointer = pointer


class CallerRejected(Exception):
    """A refused caller: 401 (who are you?), 403 (not you) or 503 (the identity provider cannot tell now)."""

    def __init__(self, status, detail):
        if status not in (401, 403, 503):
            raise ValueError(f"a caller is refused with 401, 403 or 503, not {status}")
        super().__init__(detail)
        self.status = status

    def problem(self):
        if self.status == 401:
            return ProblemError(401, "unauthorized", "Unauthorized", str(self))
        if self.status == 403:
            return ProblemError(403, "forbidden", "Forbidden", str(self))
        return ProblemError(503, "identity-provider-unavailable", "Identity provider unavailable", str(self))


def invalid_request(detail, errors=()):
    return ProblemError(400, "invalid-request", "Invalid request", detail, errors)


def invalid_field(pointer, message):
    return invalid_request(message, [{"pointer": pointer, "message": message}])


def conflict(detail):
    return ProblemError(409, "conflict", "Conflict", detail)


def forbidden(detail):
    return ProblemError(403, "forbidden", "Forbidden", detail)


def action_not_found(action_id):
    return ProblemError(404, "action-not-found", "Action not found",
                        f"No action {action_id} is known here; it may never have existed or was released.")


def not_found(path):
    return ProblemError(404, "not-found", "Not found", f"Nothing is served at {path}")


def unavailable(detail):
    return ProblemError(503, "provider-stopping", "Provider stopping", detail)


def of_status(status, detail=None):
    titles = {400: "Invalid request", 404: "Not found", 405: "Method not allowed", 411: "Length required",
              413: "Request body too large", 415: "Unsupported media type"}
    title = titles.get(status, "Internal error" if status >= 500 else "Request failed")
    return ProblemError(status, "internal" if status >= 500 else f"http-{status}", title, detail)


def iso(epoch_seconds):
    """RFC 3339 in UTC with milliseconds, as the Java SDK writes times: 2030-01-01T10:00:05.004Z."""
    return datetime.fromtimestamp(epoch_seconds, timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def canonical(value):
    """The JSON text that decides whether two bodies are the same (1, 1.0 and true differ, as in JSON)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


_DURATION = re.compile(r"^P(?!$)(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?"
                       r"(?:T(?=\d)(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$")


def parse_duration(text):
    """Seconds in an ISO-8601 duration (P30D, PT90S, P1DT2H); None when it is not one. A year is 365 days, a month 30."""
    m = _DURATION.match(text or "")
    if not m:
        return None
    y, mo, w, d, h, mi, s = (float(g) if g else 0.0 for g in m.groups())
    return (((y * 365 + mo * 30 + w * 7 + d) * 24 + h) * 60 + mi) * 60 + s


def parse_run(doc):
    """Reads a /run document field by field, so every mistake is reported with its pointer, all at once."""
    if not isinstance(doc, dict):
        raise invalid_field("", "The request must be a JSON object with request_id and body.")
    errors = []

    def text(name, required=False):
        value = doc.get(name)
        if value is None:
            if required:
                errors.append({"pointer": "/" + name, "message": f"{name} is required and must be a non-empty string"})
            return None
        if not isinstance(value, str) or (required and not value.strip()):
            errors.append({"pointer": "/" + name, "message": f"{name} is required and must be a non-empty string"
                           if required else f"{name} must be a string"})
            return None
        return value

    def strings(name):
        value = doc.get(name)
        if value is None:
            return None
        if not isinstance(value, list):
            errors.append({"pointer": "/" + name, "message": f"{name} must be an array of strings"})
            return None
        for i, item in enumerate(value):
            if not isinstance(item, str):
                errors.append({"pointer": f"/{name}/{i}", "message": "must be a string"})
        return [v for v in value if isinstance(v, str)]

    request_id = text("request_id", required=True)
    body = doc.get("body")
    if not isinstance(body, dict):
        errors.append({"pointer": "/body", "message": "body is required and must be a JSON object"})
    label = text("label")
    tags = strings("tags")
    manage_by = strings("manage_by")
    monitor_by = strings("monitor_by")
    release_after = text("release_after")
    if release_after is not None and parse_duration(release_after) is None:
        errors.append({"pointer": "/release_after", "message": "must be an ISO-8601 duration such as P30D"})
    deadline = text("deadline")
    if deadline is not None:
        try:
            datetime.fromisoformat(deadline.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError:
            errors.append({"pointer": "/deadline", "message": "must be an RFC 3339 date-time such as 2030-01-01T00:00:00Z"})
    if errors:
        raise invalid_request(summary(errors), errors)
    return ActionRequest(request_id, body, label, tags, manage_by, monitor_by, release_after, deadline)


def summary(errors):
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{first['pointer']}: {first['message']}{more}"


@dataclass
class Reported:
    """What ``start`` returns through ``ctx.active/succeeded/failed``: the provider owns these three fields."""
    status: str
    display_status: str | None
    details: dict = field(default_factory=dict)
