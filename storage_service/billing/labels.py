"""Endpoint labels: a request's method and route template, e.g. ``GET /files/{fileId}``.

A label is known before the view runs (the rate limiter counts usage in the same round trip as
the limit), so "a method the route does not serve" is read from the view, not from a 405.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from django.http import HttpRequest
from django.urls import Resolver404, resolve

OTHER = "other"
_GROUP = re.compile(r"\(\?P<(\w+)>[^)]*\)")


def _placeholder(name: str, url_name: str) -> str:
    """``pk`` of ``file-detail`` is ``{fileId}``; ``upload_id`` is ``{uploadId}``."""
    if name == "pk":
        return "{" + url_name.split("-")[0] + "Id}"
    head, *rest = name.split("_")
    return "{" + head + "".join(word.title() for word in rest) + "}"


@lru_cache(maxsize=256)
def route_template(route: str, url_name: str) -> str:
    """Turn ``v1/files/(?P<pk>[^/.]+)/?$`` into ``/files/{fileId}``."""
    path = route.removeprefix("^").removeprefix("v1/").removeprefix("^")
    path = path.removesuffix("$").removesuffix("/?")
    path = _GROUP.sub(lambda group: _placeholder(group.group(1), url_name), path)
    return "/" + path


def serves(view: Callable, method: str) -> bool:
    """Whether ``view`` answers ``method`` itself (anything else is a 405)."""
    name = method.lower()
    actions = getattr(view, "actions", None)  # a DRF viewset route
    if actions is not None:
        return name in actions or (name == "head" and "get" in actions)
    cls = getattr(view, "view_class", None)
    if cls is not None:
        return name in cls.http_method_names and (
            hasattr(cls, name) or (name == "head" and hasattr(cls, "get"))
        )
    allowed = getattr(view, "allowed_methods", None)  # a plain function view may say
    return allowed is None or method in allowed


def endpoint_label(request: HttpRequest) -> str:
    """The label a request counts under: its route's, or ``other`` when no route serves it."""
    return _label(request.method or "", request.path_info)


# Routes are fixed once the service runs, so a path's label is too; most requests repeat a few
# paths (listings), and resolving an unknown one walks every route.
@lru_cache(maxsize=4096)
def _label(method: str, path: str) -> str:
    try:
        match = resolve(path)
    except Resolver404:
        return OTHER
    if not match.url_name or not serves(match.func, method):
        return OTHER
    return f"{method} {route_template(match.route, match.url_name)}"
