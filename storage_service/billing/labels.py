"""Endpoint labels: a request's method and route template, e.g. ``GET /files/{fileId}``."""

from __future__ import annotations

import re
from functools import lru_cache

from django.http import HttpRequest, HttpResponse
from django.urls import Resolver404, ResolverMatch, resolve

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


def endpoint_label(request: HttpRequest, response: HttpResponse) -> str:
    """The label a request counts under: its route's, or ``other`` when no route serves it."""
    match: ResolverMatch | None = getattr(request, "resolver_match", None)
    if match is None:  # refused before routing (rate limit)
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return OTHER
    if not match.url_name or response.status_code == 405:
        return OTHER
    return f"{request.method} {route_template(match.route, match.url_name)}"
