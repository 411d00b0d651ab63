"""One exception type per error tag of the contract; ``api.exception_handler`` renders them.

Every failure body is ``{"error": tag, "message": str, ...extra}`` with no envelope.
"""

from __future__ import annotations

from typing import Any

Issue = dict[str, str]

# A body with thousands of bad items does not need thousands of issues to be fixed.
MAX_ISSUES = 50


def issue(path: str, message: str) -> Issue:
    """Return one ``issues`` item; ``path`` is like ``scopes[0]``, "" for the body as a whole."""
    return {"path": path, "message": message}


class ApiError(Exception):
    """A failure the API answers with ``status`` and ``{"error": tag, "message": ...}``."""

    status = 500
    tag = "InternalError"
    message = "Internal error."

    def __init__(self, message: str | None = None) -> None:
        self.message = message or self.message
        super().__init__(self.message)

    def extra(self) -> dict[str, Any]:
        return {}

    def body(self) -> dict[str, Any]:
        return {"error": self.tag, "message": self.message, **self.extra()}


class InternalError(ApiError):
    """Any crash outside the contract's table: a 500 with no internal detail in the body.

    The contract's only 500 tag, StorageFailure, tells the client that the database failed and a
    retry may help. A bug is not that, so it gets its own tag, ``InternalError``, rather than a
    misleading one; like StorageFailure its body says nothing about the cause.
    """


class InvalidRequest(ApiError):
    status, tag = 400, "InvalidRequest"

    def __init__(self, issues: list[Issue], message: str | None = None) -> None:
        self.issues = issues[:MAX_ISSUES]
        summary = "; ".join(f"{item['path'] or 'body'}: {item['message']}" for item in issues[:3])
        super().__init__(message or f"Invalid request: {summary}")

    def extra(self) -> dict[str, Any]:
        return {"issues": self.issues}


class Unauthorized(ApiError):
    status, tag = 401, "Unauthorized"
    message = "Send a valid API key as Authorization: Bearer <key>."


class Forbidden(ApiError):
    """Refused; ``requiredScope`` names the missing scope, or is null when no scope would help."""

    status, tag = 403, "Forbidden"
    message = "You may not do this."

    def __init__(self, message: str | None = None, *, required_scope: str | None = None) -> None:
        self.required_scope = required_scope
        super().__init__(message)

    def extra(self) -> dict[str, Any]:
        return {"requiredScope": self.required_scope}


class NotFound(ApiError):
    status, tag = 404, "NotFound"

    def __init__(self, *, resource: str, id: str, message: str | None = None) -> None:
        self.resource, self.id = resource, id
        super().__init__(message or f"No {resource} {id}.")

    def extra(self) -> dict[str, Any]:
        return {"resource": self.resource, "id": self.id}


class StorageFailure(ApiError):
    status, tag = 500, "StorageFailure"
    message = "The database failed; retry the request."


class ModelFailure(ApiError):
    status, tag = 502, "ModelFailure"
    message = "The configured model provider failed; the deterministic path is unaffected."


class BootstrapDisabled(ApiError):
    status, tag = 503, "BootstrapDisabled"
    message = "The service is up but configured not to serve this."
