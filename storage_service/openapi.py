"""The OpenAPI 3 description of the storage API, as the wire carries it (drf-spectacular).

Views declare their operations with ``operation()``: the ``data`` of a success, the request body,
query parameters and the error codes an operation can answer. ``finish_schema`` (a
drf-spectacular postprocessing hook) then does what every operation shares: the envelope around
each success, the failure envelope per status, the rate-limit headers on every answer, the bearer
key, the contract's path parameter names and paths without a trailing slash.

Records are JSON-schema dicts in ``RECORDS`` (published as components), written from the
serializers that produce them; ``tests/storage/test_openapi.py`` checks real answers against them.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension

from shared.openapi import (
    ANY_OBJECT,
    BINARY,
    BOOLEAN,
    INTEGER,
    NULLABLE_STRING,
    NULLABLE_TIMESTAMP,
    NUMBER,
    STRING,
    TIMESTAMP,
    URL,
    Schema,
    array,
    contract_path,
    described,
    error_classes,
    finish_operation,
    mapping,
    one_of,
    query,
    record,
    ref,
)
from storage_service import errors
from storage_service.files import sniffing

# A name's characters (storage_service/names.py): no control characters, line or paragraph
# separators or direction overrides; files and folders also refuse / and \. Lone surrogates,
# which the body parser refuses, are left out: no UTF-8 client can send one, and to many
# validators' regular expressions (Rust's, that schemathesis checks with) a surrogate range is
# no pattern at all, which would drop the whole pattern.
_NAME_CHARACTER = r"\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069"


def name(longest: int, *, slashes: bool) -> Schema:
    """A name of 1 to ``longest`` characters, not only spaces."""
    refused = _NAME_CHARACTER + ("" if slashes else "/\\\\")
    return {
        "type": "string",
        "minLength": 1,
        "maxLength": longest,
        "pattern": f"^[^{refused}]*[^ {refused}][^{refused}]*$",
    }


NAME = name(255, slashes=False)
KEY_NAME = name(100, slashes=True)
ID = {"type": "string", "minLength": 1, "maxLength": 64}
IDS = {"type": "array", "items": ID, "minItems": 1, "maxItems": 100}
COUNT = {"type": "integer", "minimum": 1}
TIMESTAMP_OR_EMPTY = {"anyOf": [TIMESTAMP, {"type": "string", "maxLength": 0}]}
# The one MIME pattern (files/sniffing.py), in either case: an upload's type is read lower-cased.
_ANY_CASE_MIME = sniffing.MIME_TYPE.pattern.replace("a-z", "A-Za-z")
MIME_TYPE = {"type": "string", "pattern": f"^{_ANY_CASE_MIME}$"}

PERMISSIONS = [
    *("files:read", "files:write", "folders:read", "folders:write"),
    *("keys:read", "keys:write", "billing:read", "admin"),
]
_FILE_TYPE_SHARE = record({"count": INTEGER, "size": INTEGER, "percentage": NUMBER})
_SUMMARY = record({"total": INTEGER, "average": NUMBER, "peak": INTEGER, "unit": STRING})
_PROJECTION = record(
    {
        "currentTrend": one_of(("increasing", "stable", "decreasing")),
        "projectedEndOfPeriod": NUMBER,
        "projectedNextPeriod": NUMBER,
    }
)
_FOLDER = {
    "folderId": STRING,
    "name": STRING,
    "parentFolderId": NULLABLE_STRING,
    "createdAt": TIMESTAMP,
    "updatedAt": TIMESTAMP,
}
_KEY = {
    "id": STRING,
    "name": STRING,
    "prefix": STRING,
    "permissions": array({"type": "string", "enum": PERMISSIONS}),
    "createdAt": TIMESTAMP,
    "expiresAt": NULLABLE_TIMESTAMP,
    "lastUsedAt": NULLABLE_TIMESTAMP,
    "isActive": BOOLEAN,
}
FOLDER_DELETION = {
    "folderId": STRING,
    "deletedFiles": INTEGER,
    "deletedSubfolders": INTEGER,
    "freedSpace": INTEGER,
}

RECORDS: dict[str, Schema] = {
    "File": record(
        {
            "id": STRING,
            "name": STRING,
            "size": INTEGER,
            "type": STRING,
            "url": URL,
            "folderId": NULLABLE_STRING,
            "uploadedAt": TIMESTAMP,
            "updatedAt": TIMESTAMP,
            # Free-form: width and height for an image, the content's sha256, the client's own.
            "metadata": {"type": "object", "additionalProperties": True},
        }
    ),
    "Folder": record(_FOLDER),
    "TrashedFolder": record(
        {
            **_FOLDER,
            "deletedAt": TIMESTAMP,
            "purgeAt": TIMESTAMP,
            "files": INTEGER,
            "subfolders": INTEGER,
            "size": INTEGER,
        }
    ),
    "Pagination": record(
        {
            "page": INTEGER,
            "limit": INTEGER,
            "total": INTEGER,
            "totalPages": INTEGER,
            "hasNext": BOOLEAN,
            "hasPrev": BOOLEAN,
        }
    ),
    "ApiKey": record(_KEY),
    "CreatedApiKey": record({**_KEY, "fullKey": STRING}),
    "FolderDeletion": record(FOLDER_DELETION),
    "UploadPart": record({"partNumber": INTEGER, "url": URL}),
    "UploadState": record(
        {
            "uploadId": STRING,
            "name": STRING,
            "size": INTEGER,
            "type": NULLABLE_STRING,
            "folderId": NULLABLE_STRING,
            "partSize": INTEGER,
            "partCount": INTEGER,
            "createdAt": TIMESTAMP,
            "expiresAt": TIMESTAMP,
            "parts": array(
                record(
                    {
                        "partNumber": INTEGER,
                        "url": URL,
                        "size": INTEGER,
                        "etag": NULLABLE_STRING,
                        "uploadedAt": NULLABLE_TIMESTAMP,
                    }
                )
            ),
            "missingParts": array(INTEGER),
        }
    ),
    "UsageReport": record(
        {
            "period": record({"start": TIMESTAMP, "end": TIMESTAMP, "granularity": STRING}),
            "summary": record(
                {
                    "storage": _SUMMARY,
                    "requests": _SUMMARY,
                    "files": _SUMMARY,
                    "bandwidth": record({"upload": INTEGER, "download": INTEGER, "unit": STRING}),
                }
            ),
            "timeline": array(
                record(
                    {
                        "date": TIMESTAMP,
                        "storage": record({"used": INTEGER, "percentage": NUMBER}),
                        "requests": record({"count": INTEGER, "percentage": NUMBER}),
                        "files": record({"count": INTEGER, "percentage": NUMBER}),
                        "bandwidth": record({"upload": INTEGER, "download": INTEGER}),
                    }
                )
            ),
            "breakdown": record(
                {
                    "byFileType": mapping(_FILE_TYPE_SHARE),
                    "byEndpoint": mapping(record({"count": INTEGER, "percentage": NUMBER})),
                    "byHour": mapping(INTEGER),
                }
            ),
            "projections": record({"storage": _PROJECTION, "requests": _PROJECTION}),
        }
    ),
}

FILE_DATA = record({"file": ref("File")})
FOLDER_DATA = record({"folder": ref("Folder")})

# Every code the service answers, by HTTP status (decisions.md: Status codes).
CODES_BY_STATUS: dict[int, list[str]] = {}
for _error in error_classes(errors.ApiError):
    if _error.code not in CODES_BY_STATUS.get(_error.status, []):
        CODES_BY_STATUS.setdefault(_error.status, []).append(_error.code)

STATUS_OF = {code: status for status, codes in CODES_BY_STATUS.items() for code in codes}
RECORDS["Failure"] = record(
    {
        "success": {"type": "boolean", "enum": [False]},
        "error": record(
            {
                "code": one_of(sorted(STATUS_OF)),
                "message": STRING,
                "details": ANY_OBJECT,
            }
        ),
    }
)

# Answers every operation can give: no or a bad key, a permission it lacks, a limit reached,
# a method the path does not have, and parameters it does not know.
COMMON_ERRORS = (
    *("INVALID_API_KEY", "ACCESS_DENIED", "RATE_LIMITED", "METHOD_NOT_ALLOWED"),
    "INVALID_PARAMETERS",
)
RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": "Requests allowed in the current hour window.",
    "X-RateLimit-Remaining": "Requests left in the window.",
    "X-RateLimit-Reset": "Unix time in seconds at which the window ends.",
}

PAGE_QUERY = [
    query("page", {"type": "integer", "minimum": 1}, "Page number; default 1."),
    query("limit", {"type": "integer", "minimum": 1, "maximum": 100}, "Per page; default 20."),
]


def operation(
    summary: str,
    *,
    data: Schema | None = None,
    errors: tuple[str, ...] = (),
    **described_as: Any,
) -> Any:
    """Describe one operation: ``data`` is what the success envelope carries, ``errors`` the
    codes beyond those every operation can answer; the rest as ``shared.openapi.described``."""
    codes = (*COMMON_ERRORS, "INTERNAL_ERROR", *errors)
    return described(summary, response=data, error_codes=codes, **described_as)


class ApiKeyScheme(OpenApiAuthenticationExtension):
    """``Authorization: Bearer ak_...`` for every operation."""

    target_class = "storage_service.accounts.authentication.ApiKeyAuthentication"
    name = "apiKey"

    def get_security_definition(self, auto_schema: Any) -> Schema:
        return {"type": "http", "scheme": "bearer", "description": "An API key, ak_..."}


# The router's {id} is the contract's {fileId}, {folderId} or {keyId}; the uploads' routes name
# theirs in Python's style.
_ID_NAMES = {"files": "fileId", "folders": "folderId", "keys": "keyId"}
_CAMEL = {"upload_id": "uploadId", "part_number": "partNumber"}
_BYTES = {"*/*": {"schema": BINARY}}

DOWNLOAD = {
    "operationId": "downloads_retrieve",
    "summary": "A file's bytes, by the signed link in its url (no key needed)",
    "tags": ["downloads"],
    "security": [],
    "parameters": [
        {"name": "token", "in": "path", "required": True, "schema": STRING},
        {"name": "Range", "in": "header", "required": False, "schema": STRING},
        {"name": "If-None-Match", "in": "header", "required": False, "schema": STRING},
    ],
    "responses": {
        "200": {"description": "The bytes", "content": _BYTES},
        "206": {"description": "The requested range", "content": _BYTES},
        "302": {"description": "To the object store's own signed link, when there is one"},
        "304": {"description": "Not modified since the ETag the client holds"},
    },
    "x-error-codes": [
        *("FILE_NOT_FOUND", "RANGE_NOT_SATISFIABLE", "RATE_LIMITED", "INVALID_PARAMETERS"),
        "ACCESS_DENIED",  # a link that is not ours or has expired
        *("METHOD_NOT_ALLOWED", "INTERNAL_ERROR"),
    ],
}


def finish_schema(result: Schema, generator: Any, request: Any, public: bool) -> Schema:
    """Postprocessing hook (SPECTACULAR_SETTINGS): what every operation shares."""
    components = result.setdefault("components", {})
    components.setdefault("schemas", {}).update(RECORDS)
    components["headers"] = {
        name: {"required": True, "schema": INTEGER, "description": description}
        for name, description in RATE_LIMIT_HEADERS.items()
    }
    routes = {**result.get("paths", {}), "/v1/downloads/{token}": {"get": dict(DOWNLOAD)}}
    paths = {}
    for route, item in routes.items():
        resource = route.split("/")[2]
        names = {**_CAMEL, "id": _ID_NAMES.get(resource, "id")}
        for operation_ in item.values():
            _finish(operation_, finish_operation(operation_, names))
        paths[contract_path(route, names)] = item
    result["paths"] = dict(sorted(paths.items()))
    return result


def _finish(operation_: Schema, codes: list[str]) -> None:
    """Wrap successes in the envelope, add the failures by status, and the headers to all."""
    headers = {name: {"$ref": f"#/components/headers/{name}"} for name in RATE_LIMIT_HEADERS}
    responses = operation_.setdefault("responses", {})
    for status, response in list(responses.items()):
        content = response.get("content", {}).get("application/json")
        if str(status).startswith("2") and content is not None:
            content["schema"] = _envelope(content["schema"])
        response["headers"] = headers
    by_status: dict[int, list[str]] = {}
    for code in codes:
        by_status.setdefault(STATUS_OF[code], []).append(code)
    for status, listed in sorted(by_status.items()):
        responses[str(status)] = {
            "description": ", ".join(sorted(listed)),
            "headers": headers,
            "content": {"application/json": {"schema": ref("Failure")}},
        }


def _envelope(data: Schema) -> Schema:
    return record(
        {
            "success": {"type": "boolean", "enum": [True]},
            "data": data,
            "error": {"type": "object", "nullable": True, "enum": [None]},
        }
    )
