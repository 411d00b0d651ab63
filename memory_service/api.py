"""JSON in, JSON out, and the one exception handler that maps every failure to the error table."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import DatabaseError
from django.http import Http404, HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions as drf
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from memory_service import errors

logger = logging.getLogger(__name__)

AUTHENTICATE_HEADER = 'Bearer realm="memory"'


class AlwaysJSON(DefaultContentNegotiation):
    """Answer JSON whatever the Accept header asks for: the contract has no other format."""

    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        first = next(iter(renderers))
        return first, first.media_type


def validation_issues(detail: Any, path: str = "") -> list[errors.Issue]:
    """Flatten DRF's nested validation errors into issues with paths like ``scopes[1]``."""
    if isinstance(detail, dict):
        found = []
        for key, value in detail.items():
            if key == api_settings.NON_FIELD_ERRORS_KEY:
                sub = path
            elif isinstance(key, int):
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            found += validation_issues(value, sub)
        return found
    if isinstance(detail, list):
        found = []
        for index, item in enumerate(detail):
            if isinstance(item, dict | list):
                found += validation_issues(item, f"{path}[{index}]")
            else:
                found.append(errors.issue(path, str(item)))
        return found
    return [errors.issue(path, str(detail))]


def to_api_error(exc: Exception, request: HttpRequest | None = None) -> errors.ApiError:
    """Translate any exception into one of the contract's error types."""
    if isinstance(exc, errors.ApiError):
        return exc
    if isinstance(exc, drf.NotAuthenticated | drf.AuthenticationFailed):
        return errors.Unauthorized()
    if isinstance(exc, drf.PermissionDenied):  # DRF's CSRF check on a session request
        return errors.Forbidden(str(exc.detail))
    if isinstance(exc, PermissionDenied):
        return errors.Forbidden()
    if isinstance(exc, drf.MethodNotAllowed):
        return errors.InvalidRequest([errors.issue("method", str(exc.detail))])
    if isinstance(exc, drf.NotFound | Http404):
        return route_error(request)
    if isinstance(exc, drf.ValidationError):
        return errors.InvalidRequest(validation_issues(exc.detail))
    if isinstance(exc, drf.ParseError):
        return errors.InvalidRequest([errors.issue("", str(exc.detail))])
    if isinstance(exc, drf.UnsupportedMediaType):
        message = "Send the body as JSON, with Content-Type: application/json."
        return errors.InvalidRequest([errors.issue("", message)])
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        return errors.InvalidRequest([errors.issue("", f"The body is larger than {limit} bytes.")])
    if isinstance(exc, DatabaseError):
        logger.exception("Database error", exc_info=exc)
        return errors.StorageFailure()
    logger.exception("Unhandled error", exc_info=exc)
    return errors.InternalError()


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """Answer any exception raised in a DRF view with the contract's error body."""
    from rest_framework.views import set_rollback  # a top-level import would be circular

    error = to_api_error(exc, context.get("request"))
    set_rollback()
    # DRF sets Allow on every response of a view, this one included.
    headers = {}
    if isinstance(error, errors.Unauthorized):
        headers["WWW-Authenticate"] = AUTHENTICATE_HEADER
    return Response(error.body(), status=error.status, headers=headers)


def error_response(error: errors.ApiError) -> JsonResponse:
    """Render ``error`` outside DRF: unknown routes and Django's own error handlers."""
    # Dumped like DRF's renderer does, so that every body looks the same.
    dump = {"separators": (",", ":"), "ensure_ascii": False}
    return JsonResponse(error.body(), status=error.status, json_dumps_params=dump)


def method_not_allowed(reason: str) -> JsonResponse:
    """Refuse a method outside DRF (``/ready``) as DRF's views do: an issue at ``method``."""
    return error_response(errors.InvalidRequest([errors.issue("method", reason)]))


def route_error(request: HttpRequest | None) -> errors.NotFound:
    path = request.path if request is not None else ""
    return errors.NotFound(resource="route", id=path, message=f"No such endpoint: {path}")


# Exempt, or CsrfViewMiddleware would answer an unknown POST with an HTML page instead.
@csrf_exempt
def route_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(route_error(request))


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(errors.InvalidRequest([errors.issue("", "Bad request.")]))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(errors.Forbidden())


def server_error(request: HttpRequest) -> JsonResponse:
    return error_response(errors.InternalError())


def early_error(status: int, reason: str) -> tuple[int, dict[str, Any]]:
    """The answer to a request gunicorn refused before the application saw it (a request line
    too long, a malformed Content-Length), in the error table's shape."""
    if status >= 500:
        error: errors.ApiError = errors.InternalError()
    else:
        message = f"The request could not be read: {reason or 'Bad Request'}."
        error = errors.InvalidRequest([errors.issue("", message)], message)
    return error.status, error.body()
