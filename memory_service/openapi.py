"""The OpenAPI 3 description of the memory API, as the wire carries it (drf-spectacular).

Views declare their operations with ``operation()``: the success body, the request body, query
parameters and the error tags an operation can answer. ``finish_schema`` (a drf-spectacular
postprocessing hook) then does what every operation shares: each failure body by status, the
bearer key (or none, for health), the contract's paths without a trailing slash. A success is
the resource itself and a failure is ``{"error": tag, "message": ...}``: there is no envelope,
and no rate-limit headers either.

Records are JSON-schema dicts in ``RECORDS`` (published as components), written from the
serializers that produce them; ``tests/memory/test_openapi.py`` checks real answers against them.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.extensions import OpenApiAuthenticationExtension

from memory_service import errors
from memory_service.accounts.scopes import ALL_SCOPES
from memory_service.api import AUTHENTICATE_HEADER
from memory_service.config import RULES_AND_MODEL, RULES_ONLY
from memory_service.context.block import SECTIONS
from memory_service.extraction.candidates import KINDS, REASONS
from memory_service.memories.models import SOURCES, TIERS
from memory_service.tensions.models import STATUSES
from shared.openapi import (
    BOOLEAN,
    INTEGER,
    NULLABLE_STRING,
    NULLABLE_TIMESTAMP,
    NUMBER,
    STRING,
    TIMESTAMP,
    Schema,
    array,
    contract_path,
    described,
    error_classes,
    finish_operation,
    one_of,
    query,
    record,
    ref,
)

# What no string field takes: NUL (DRF's fields refuse it). A lone surrogate, which
# shared/input_guards.py refuses too, is left out: no UTF-8 client can send one, and to many
# validators' regular expressions (Rust's, that schemathesis checks with) a surrogate range is
# no pattern at all.
UNREADABLE = r"\x00"
# ... nor one that refuses control characters but line breaks and tabs.
CONTROLS = UNREADABLE + r"\x01-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f"
# ... nor, near enough, one that takes only printable characters (str.isprintable): controls,
# spaces other than " ", format characters, line and paragraph separators, private use.
UNPRINTABLE = (
    CONTROLS
    + r"\t\n\r\u00a0\u00ad\u1680\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff\ue000-\uf8ff"
)


def text(
    longest: int, *, blank: bool = False, trimmed: bool = True, refused: str = UNREADABLE
) -> Schema:
    """A string field of at most ``longest`` characters, none of ``refused``. Unless ``blank``
    it may not be empty, nor only whitespace when the field ``trimmed`` it (DRF's default)."""
    anything = f"[^{refused}]*"
    pattern = f"^{anything}[^\\s{refused}]{anything}$" if trimmed and not blank else f"^{anything}$"
    schema: Schema = {"type": "string", "maxLength": longest, "pattern": pattern}
    if not blank:
        schema["minLength"] = 1
    return schema


_NOTE = record({"text": STRING, "count": INTEGER, "lastSeenAt": TIMESTAMP})

RECORDS: dict[str, Schema] = {
    "Memory": record(
        {
            "id": STRING,
            "content": STRING,
            "kind": one_of(KINDS),
            "tier": one_of(TIERS),
            # Blank when the rules find no subject, or none was given: shown as null.
            "subject": NULLABLE_STRING,
            "domain": NULLABLE_STRING,
            "source": one_of(SOURCES),
            "sessionId": NULLABLE_STRING,
            "timesSeen": INTEGER,
            "createdAt": TIMESTAMP,
            "updatedAt": TIMESTAMP,
            "lastUsedAt": NULLABLE_TIMESTAMP,
        }
    ),
    "TierCounts": record({**dict.fromkeys(TIERS, INTEGER), "total": INTEGER}),
    "TurnResult": record(
        {
            "counts": record(
                dict.fromkeys(("stored", "merged", "rejected", "tensions", "promoted"), INTEGER)
            ),
            "rejected": array(record({"content": STRING, "reason": one_of(REASONS)})),
            # The memories stored or merged into.
            "memories": array(ref("Memory")),
        }
    ),
    "RecallHit": record(
        {
            "id": STRING,
            "content": STRING,
            "tier": one_of(TIERS),
            "kind": one_of(KINDS),
            "score": NUMBER,
            "reason": STRING,
        }
    ),
    "ContextBlock": record(
        {
            "text": STRING,
            "entries": array(
                record(
                    {
                        "line": STRING,
                        "section": one_of(SECTIONS),
                        # A guardrail line names its domain; every other line its memory.
                        "memoryId": NULLABLE_STRING,
                        "domain": NULLABLE_STRING,
                        "reason": STRING,
                        "tokens": INTEGER,
                    }
                )
            ),
            "totalTokens": INTEGER,
            "truncated": BOOLEAN,
        }
    ),
    "Tension": record(
        {
            "id": STRING,
            "status": one_of(STATUSES),
            "memoryIds": {**array(STRING), "minItems": 2, "maxItems": 2},
            "description": STRING,
            "createdAt": TIMESTAMP,
            "resolvedAt": NULLABLE_TIMESTAMP,
            "resolution": {
                **record({"keep": STRING, "note": NULLABLE_STRING, "lessonId": NULLABLE_STRING}),
                "nullable": True,
            },
            # Both memories in full, older first, as memoryIds.
            "memories": {**array(ref("Memory")), "minItems": 2, "maxItems": 2},
        }
    ),
    "SelfModelDomain": record(
        {
            "domain": STRING,
            "reliabilityScore": NUMBER,
            "samples": INTEGER,
            "successes": INTEGER,
            "failures": INTEGER,
            "failurePatterns": array(_NOTE),
            "strategies": array(_NOTE),
            "updatedAt": TIMESTAMP,
        }
    ),
    "ApiKey": record(
        {
            "id": STRING,
            "name": STRING,
            "prefix": STRING,
            "scopes": array(one_of(ALL_SCOPES)),
            "createdAt": TIMESTAMP,
            "lastUsedAt": NULLABLE_TIMESTAMP,
            "revokedAt": NULLABLE_TIMESTAMP,
        }
    ),
    "Stats": record(
        {
            "memories": ref("TierCounts"),
            "tensions": record(dict.fromkeys(STATUSES, INTEGER)),
            "weakDomains": array(ref("SelfModelDomain")),
            "activeTensions": array(ref("Tension")),
            "turns": INTEGER,
        }
    ),
    "Health": record(
        {
            "ok": BOOLEAN,
            "service": one_of(["memory"]),
            "extractor": one_of([RULES_ONLY, RULES_AND_MODEL]),
            "limits": record(
                dict.fromkeys(("maxTotalTokens", "maxIndexItems", "defaultRecallLimit"), INTEGER)
            ),
            "problems": array(STRING),
        }
    ),
    # Where in the request ("scopes[1]", "query", "" for the body as a whole) and what is wrong.
    "Issue": record({"path": STRING, "message": STRING}),
}

# The fields each tag adds to ``error`` and ``message`` (errors.py: each class's ``extra()``).
EXTRA_FIELDS: dict[str, dict[str, Schema]] = {
    "InvalidRequest": {"issues": array(ref("Issue"))},
    # Null when no scope would help (a session user outside any organisation, say).
    "Forbidden": {
        "requiredScope": {"type": "string", "enum": [*ALL_SCOPES, None], "nullable": True}
    },
    # "route" for a path no endpoint serves.
    "NotFound": {"resource": one_of(("memory", "tension", "key", "route")), "id": STRING},
}

# Every tag the service answers, by HTTP status (the contract's error table, and InternalError).
TAGS_BY_STATUS: dict[int, list[str]] = {}
for _error in error_classes(errors.ApiError):  # ApiError itself is an InternalError
    if _error.tag not in TAGS_BY_STATUS.get(_error.status, []):
        TAGS_BY_STATUS.setdefault(_error.status, []).append(_error.tag)
    # A component per tag, named as the tag, so that a 500's two bodies can be told by "error".
    RECORDS[_error.tag] = record(
        {"error": one_of([_error.tag]), "message": STRING, **EXTRA_FIELDS.get(_error.tag, {})}
    )
STATUS_OF = {tag: status for status, tags in TAGS_BY_STATUS.items() for tag in tags}

# Answers every operation can give: a bad body, query parameter or method (InvalidRequest is
# the answer to a method a path does not have too), and a bug.
COMMON_ERRORS = ("InvalidRequest", "InternalError")
# ... and every operation that needs a key: none or a bad one, a scope it lacks, and the
# database failing, which every key is looked up in.
KEY_ERRORS = ("Unauthorized", "Forbidden", "StorageFailure")

PAGE_QUERY = [
    query("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "Per page; default 20."),
    query("cursor", text(200), "The nextCursor of the page before."),
]


def paged(name: str, item: Schema) -> Schema:
    """A page of ``name``: its items, and the cursor of the next page (null on the last)."""
    return record({name: array(item), "nextCursor": NULLABLE_STRING})


def operation(
    summary: str,
    *,
    response: Schema | None = None,
    errors: tuple[str, ...] = (),
    key_needed: bool = True,
    **described_as: Any,
) -> Any:
    """Describe one operation: ``response`` is the success body, ``errors`` the tags beyond
    those every operation can answer; the rest as ``shared.openapi.described``."""
    codes = (*COMMON_ERRORS, *(KEY_ERRORS if key_needed else ()), *errors)
    return described(summary, response=response, error_codes=codes, **described_as)


class ApiKeyScheme(OpenApiAuthenticationExtension):
    """``Authorization: Bearer mk_...`` for every operation but health."""

    target_class = "memory_service.accounts.authentication.ApiKeyAuthentication"
    name = "apiKey"

    def get_security_definition(self, auto_schema: Any) -> Schema:
        return {"type": "http", "scheme": "bearer", "description": "An API key, mk_..."}


class MemberSessionScheme(OpenApiAuthenticationExtension):
    """A member's admin login, which the key endpoints accept too."""

    target_class = "memory_service.accounts.authentication.MemberSessionAuthentication"
    name = "memberSession"

    def get_security_definition(self, auto_schema: Any) -> Schema:
        return {
            "type": "apiKey",
            "in": "cookie",
            "name": settings.SESSION_COOKIE_NAME,
            "description": "A Django admin login of a member; unsafe methods need X-CSRFToken.",
        }


def finish_schema(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """Postprocessing hook (SPECTACULAR_SETTINGS): what every operation shares."""
    result.setdefault("components", {}).setdefault("schemas", {}).update(RECORDS)
    paths = {}
    for route, item in result.get("paths", {}).items():
        template = contract_path(route, {})
        for operation_ in item.values():
            _finish(operation_, finish_operation(operation_, {}))
        paths[template] = item
    result["paths"] = dict(sorted(paths.items()))
    return result


def _finish(operation_: Schema, tags: list[str]) -> None:
    """Add the failures by status, and say so when an operation needs no key (drf-spectacular
    leaves security out for a view without one) and when its body may be left out."""
    responses = operation_["responses"]
    operation_.setdefault("security", [])
    body = operation_.get("requestBody", {}).get("content", {}).get("application/json")
    if body and body["schema"].get("type") == "object" and "required" not in body["schema"]:
        operation_["requestBody"]["required"] = False  # every field optional: so is the body
    by_status: dict[int, list[str]] = {}
    for tag in tags:
        by_status.setdefault(STATUS_OF[tag], []).append(tag)
    for status, listed in sorted(by_status.items()):
        responses[str(status)] = _failure(sorted(listed))
        if status == 401:
            responses["401"]["headers"] = {
                "WWW-Authenticate": {
                    "schema": {"type": "string", "enum": [AUTHENTICATE_HEADER]},
                    "description": "How to authenticate: with a Bearer key.",
                }
            }


def _failure(tags: list[str]) -> Schema:
    """The failure bodies ``tags`` answer with, told apart by their ``error``."""
    if len(tags) == 1:
        schema = ref(tags[0])
    else:
        schema = {"oneOf": [ref(tag) for tag in tags], "discriminator": {"propertyName": "error"}}
    return {"description": ", ".join(tags), "content": {"application/json": {"schema": schema}}}
