"""The envelope: one renderer for successes and one exception handler for every failure."""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.db import DatabaseError
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions as drf
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from storage_service import errors

logger = logging.getLogger(__name__)


def error_body(error: errors.ApiError) -> dict[str, Any]:
    return {
        "success": False,
        "error": {"code": error.code, "message": error.message, "details": error.details},
    }


def error_response(error: errors.ApiError) -> JsonResponse:
    """Render ``error`` outside DRF (middleware, unknown routes, crashes)."""
    return JsonResponse(error_body(error), status=error.status)


def method_not_allowed(reason: str) -> JsonResponse:
    """Refuse a method outside DRF (``/ready``) as DRF's views do: 405 METHOD_NOT_ALLOWED."""
    return error_response(errors.MethodNotAllowed(reason))


class EnvelopeRenderer(JSONRenderer):
    """Wrap successful payloads as ``{success, data, error}``; errors arrive already wrapped."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        response = (renderer_context or {}).get("response")
        if response is not None and not response.exception:
            data = {"success": True, "data": data, "error": None}
        return super().render(data, accepted_media_type, renderer_context)


def _validation_details(detail: Any, path: str = "") -> dict[str, str]:
    """Flatten DRF's nested validation errors into ``{"field.sub": "reason"}``."""
    if isinstance(detail, dict):
        flat: dict[str, str] = {}
        for key, value in detail.items():
            name = "body" if key == "non_field_errors" else str(key)
            flat.update(_validation_details(value, f"{path}.{name}" if path else name))
        return flat
    if isinstance(detail, list):
        if all(not isinstance(item, dict | list) for item in detail):
            return {path or "body": " ".join(str(item) for item in detail)}
        flat = {}
        for index, item in enumerate(detail):
            flat.update(_validation_details(item, f"{path}[{index}]"))
        return flat
    return {path or "body": str(detail)}


def to_api_error(exc: Exception) -> errors.ApiError:
    """Translate any exception into the contract's error type."""
    if isinstance(exc, errors.ApiError):
        return exc
    if isinstance(exc, drf.NotAuthenticated | drf.AuthenticationFailed):
        return errors.InvalidApiKey()
    if isinstance(exc, drf.PermissionDenied):
        return errors.AccessDenied()
    if isinstance(exc, drf.MethodNotAllowed):
        return errors.MethodNotAllowed(f"{exc.detail}")
    if isinstance(exc, drf.NotFound):
        return errors.RouteNotFound()
    if isinstance(exc, drf.ValidationError):
        return errors.InvalidParameters(**_validation_details(exc.detail))
    if isinstance(exc, drf.ParseError | drf.UnsupportedMediaType):
        return errors.InvalidParameters(body=str(exc.detail))
    if isinstance(exc, RequestDataTooBig):
        return errors.InvalidParameters(body="The request body is too large.")
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return errors.InvalidParameters(body="The request has too many fields or files.")
    if errors.is_out_of_space(exc):
        logger.warning("Out of space: %s", exc.strerror)
        return errors.StorageFull()
    if isinstance(exc, DatabaseError):
        logger.exception("Database error")
        return errors.ApiError()
    logger.exception("Unhandled error", exc_info=exc)
    return errors.ApiError()


def exception_handler(exc: Exception, context: dict) -> Response:
    from rest_framework.views import set_rollback  # a top-level import would be circular

    error = to_api_error(exc)
    set_rollback()
    headers = {}
    if isinstance(exc, drf.MethodNotAllowed):
        view = context.get("view")
        if view is not None:
            headers["Allow"] = ", ".join(view.allowed_methods)
    if isinstance(error, errors.InvalidApiKey):
        headers["WWW-Authenticate"] = 'Bearer realm="storage"'
    return Response(error_body(error), status=error.status, headers=headers)


# Exempt, or CsrfViewMiddleware would answer a POST to an unknown path with an HTML page.
@csrf_exempt
def route_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(errors.RouteNotFound())


def bad_request(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """Django's answer to a request it refused outside a view (over a thousand query
    parameters, say), in the envelope."""
    return error_response(errors.InvalidParameters("The request could not be read."))


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return error_response(errors.AccessDenied())


def server_error(request: HttpRequest) -> JsonResponse:
    return error_response(errors.ApiError())


def early_error(status: int, reason: str) -> tuple[int, dict[str, Any]]:
    """The answer to a request gunicorn refused before the application saw it (a request line
    too long, a malformed Content-Length): the envelope, and only the contract's statuses."""
    if status >= 500:
        error: errors.ApiError = errors.ApiError()
    else:
        error = errors.InvalidParameters(
            f"The request could not be read: {reason or 'Bad Request'}.", request=reason
        )
    return error.status, error_body(error)
