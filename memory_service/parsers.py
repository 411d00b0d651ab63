"""Input this service can read and store (``shared.input_guards``), refused in its own shape."""

from __future__ import annotations

from django.http import HttpResponse

from memory_service import errors
from memory_service.api import error_response
from shared import input_guards
from shared.input_guards import JSONBodyParser

__all__ = ["JSONBodyParser", "KnownQueryParameters", "PathAndQueryGuard"]


def _refusals(reasons: dict[str, str]) -> errors.ApiError:
    return errors.InvalidRequest([errors.issue(name, reason) for name, reason in reasons.items()])


def _refusal_response(reasons: dict[str, str]) -> HttpResponse:
    return error_response(_refusals(reasons))


class PathAndQueryGuard(input_guards.PathAndQueryGuard):
    refusal = staticmethod(_refusal_response)


class KnownQueryParameters(input_guards.KnownQueryParameters):
    refusal = staticmethod(_refusals)
