"""Checks of a service's OpenAPI description against the service itself (both suites use them).

``routes()`` lists every (path, method) the URL configuration serves, read from Django's resolver,
so a route added without a description fails the test that compares the two. ``check_answer()``
validates a real answer's body against the schema the description gives for its status.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import jsonschema
from django.urls import URLPattern, URLResolver, get_resolver

METHODS = ("get", "post", "put", "patch", "delete")


def routes(prefix: str, *, skip: tuple[Any, ...] = ()) -> set[tuple[str, str]]:
    """Every (example path, method) served under ``prefix``, views in ``skip`` left out."""
    found: set[tuple[str, str]] = set()
    for pattern, view in _patterns(get_resolver().url_patterns, ""):
        if view in skip:
            continue
        example = _example(pattern)
        if example.startswith(prefix):
            found.update((example, method) for method in _methods(view))
    return found


def _patterns(patterns: list, prefix: str) -> Iterator[tuple[str, Any]]:
    for entry in patterns:
        regex = entry.pattern.regex.pattern.removeprefix("^")
        if isinstance(entry, URLResolver):
            yield from _patterns(entry.url_patterns, prefix + regex)
        elif isinstance(entry, URLPattern):
            yield prefix + regex, entry.callback


def _example(regex: str) -> str:
    """A path the route's regex matches, with ``sample`` for each named group."""
    path = re.sub(r"\(\?P<\w+>[^)]*\)", "sample", regex)
    path = path.replace("/?", "/").replace("\\Z", "").replace("$", "").replace("\\", "")
    return "/" + path.rstrip("/")


def _methods(view: Any) -> set[str]:
    actions = getattr(view, "actions", None)  # a ViewSet's route: its method -> action map
    if actions:
        return set(actions) & set(METHODS)
    view_class = getattr(view, "cls", None) or getattr(view, "view_class", None)
    if view_class is None:
        return {"get"}  # a function view: the services' are downloads, GET (and HEAD)
    return {m for m in METHODS if hasattr(view_class, m)}


def described(schema: dict, path: str, method: str) -> bool:
    """Whether the description has an operation whose path template matches ``path``."""
    for template, item in schema["paths"].items():
        if re.fullmatch(re.sub(r"\{\w+\}", "[^/]+", template), path) and method in item:
            return True
    return False


def check_answer(schema: dict, template: str, method: str, status: int, body: Any) -> None:
    """Raise ``jsonschema.ValidationError`` unless ``body`` is what the description says."""
    responses = schema["paths"][template][method]["responses"]
    assert str(status) in responses, f"{method.upper()} {template} answered {status}, undescribed"
    described_as = responses[str(status)]["content"]["application/json"]["schema"]
    root = {**_as_json_schema(described_as), "components": _as_json_schema(schema["components"])}
    jsonschema.validate(body, root)


def _as_json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` as JSON Schema's ``null`` type."""
    if isinstance(node, list):
        return [_as_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: _as_json_schema(value) for key, value in node.items()}
    if converted.pop("nullable", False):
        if "type" in converted:
            converted["type"] = [converted["type"], "null"]
        if "enum" in converted and None not in converted["enum"]:
            converted["enum"] = [*converted["enum"], None]
    return converted
