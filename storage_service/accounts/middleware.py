from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from storage_service import errors
from storage_service.accounts.rate_limiting import count_request
from storage_service.api import error_response


class RateLimitMiddleware:
    """Count every /v1 request, refuse those over the limit, and report the figures as headers.

    It runs before routing, so unknown routes and failed authentications are counted and carry
    the headers too.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith("/v1/"):
            return self.get_response(request)
        decision = count_request(request)
        if decision.allowed:
            response = self.get_response(request)
        else:
            response = error_response(
                errors.RateLimited(limit=decision.limit, reset=decision.window.reset)
            )
        for name, value in decision.headers().items():
            response[name] = value
        return response
