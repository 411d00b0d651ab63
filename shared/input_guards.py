"""Input a service can read and store, checked before any view sees it.

Python's json module parses JSON nested a thousand deep (the stack overflows later) and lone
surrogates (half of a UTF-16 pair, which neither PostgreSQL nor a JSON answer can hold); Django
decodes ``%00`` in a path or query, which PostgreSQL cannot store. Each would answer 500. A NUL
inside a JSON body is left to the fields, which refuse it with their own error.

Both services use these as they are, each through a subclass that says how a refusal is
answered in its own error shape (``refusal``: the reasons by name, to the service's error).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.http import HttpRequest, HttpResponse
from rest_framework.exceptions import ParseError, ValidationError
from rest_framework.parsers import JSONParser
from rest_framework.permissions import BasePermission

if TYPE_CHECKING:  # at run time rest_framework.views would import the settings: a cycle
    from rest_framework.request import Request
    from rest_framework.views import APIView

MAX_DEPTH = 64
MAX_UNKNOWN_SHOWN = 20
LONE_SURROGATE = "Text may not contain lone surrogates (half of a UTF-16 pair)."


class JSONBodyParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None) -> Any:
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(f"JSON nested deeper than {MAX_DEPTH} levels.") from None
        problem = unreadable(data)
        if problem:
            path, reason = problem
            raise ValidationError({path or "body": reason})
        return data


def unreadable(data: Any) -> tuple[str, str] | None:
    """The path (``memories[0].content``) and reason of the first value a service cannot
    read, or None; walked without recursion, whatever the depth."""
    pending: list[tuple[Any, int, str]] = [(data, 1, "")]
    while pending:
        value, depth, path = pending.pop()
        if depth > MAX_DEPTH:
            return path, f"JSON nested deeper than {MAX_DEPTH} levels."
        if isinstance(value, dict):
            for key, item in value.items():
                if not _encodable(key):
                    return path, LONE_SURROGATE
                pending.append((item, depth + 1, f"{path}.{key}" if path else key))
        elif isinstance(value, list):
            pending.extend((item, depth + 1, f"{path}[{i}]") for i, item in enumerate(value))
        elif isinstance(value, str) and not _encodable(value):
            return path, LONE_SURROGATE
    return None


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class PathAndQueryGuard:
    """Answer 400 for a NUL in the path or the query string, before a view passes it to the
    database (Django decodes ``%00``; broken UTF-8 it leaves percent-encoded)."""

    # Set by each service: the answer, in its own error shape, to the reasons by name.
    refusal: Callable[[dict[str, str]], HttpResponse]

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path:
            return self.refusal({"path": "The path may not contain NUL characters."})
        for name, values in request.GET.lists():
            if any("\x00" in text for text in [name, *values]):
                reason = "Query parameters may not contain NUL characters."
                return self.refusal({name[:100].replace("\x00", ""): reason})
        return self.get_response(request)


class KnownQueryParameters(BasePermission):
    """Refuse the query parameters an action does not read, naming each (a misspelt ``sortby``
    would otherwise be ignored in silence and the client never know).

    A view lists what each action (or method) reads in ``query_parameters``; none by default.
    The second permission class, so that a missing key or permission is reported first.
    """

    # Set by each service: its error, to raise, for the reasons by name.
    refusal: Callable[[dict[str, str]], Exception]

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method not in view.allowed_methods:
            return True  # not routed here: the view answers that first
        action = getattr(view, "action", None) or request.method.lower()
        accepted = getattr(view, "query_parameters", {}).get(action, ())
        unknown = sorted(name for name in request.query_params if name not in accepted)
        if unknown:
            reason = "Unknown query parameter."
            raise self.refusal({name[:100]: reason for name in unknown[:MAX_UNKNOWN_SHOWN]})
        return True
