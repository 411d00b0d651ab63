"""A request id on every log line and in every response (``X-Request-Id``).

The id comes from the proxy in front when it sends a usable one (nginx's ``$request_id``, a load
balancer's trace id), so one id follows a request through every hop; otherwise it is made here.
A header value that is not a short token (a newline, quotes, kilobytes) is replaced rather than
trusted: it would end up in log lines and a response header.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from contextvars import ContextVar

from django.core.signals import request_finished
from django.http import HttpRequest, HttpResponse

HEADER = "X-Request-Id"
NONE = "-"
_USABLE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@/+=-]{0,127}")

current: ContextVar[str] = ContextVar("request_id", default=NONE)


def request_id_of(request: HttpRequest) -> str:
    """The proxy's id for ``request`` when it is a usable token, else a new one."""
    given = request.META.get("HTTP_X_REQUEST_ID", "")
    return given if _USABLE.fullmatch(given) else uuid.uuid4().hex


def _request_finished(**kwargs: object) -> None:
    current.set(NONE)


class RequestIdMiddleware:
    """Outermost: every log line of the request, and its response, carry the id.

    The id stays set until the response is closed, not only while the middleware runs: Django
    logs an error response after the whole middleware chain has returned, and a streamed body is
    read after that.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        request_finished.connect(_request_finished, dispatch_uid="shared.request_id")

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_of(request)
        current.set(request_id)
        response = self.get_response(request)
        response[HEADER] = request_id
        return response
