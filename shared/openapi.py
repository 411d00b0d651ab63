"""What both services' OpenAPI descriptions are built from (drf-spectacular).

A view declares an operation with its service's ``operation()``, which calls ``described()``
here: the success body, the request body, parameters and the error codes the operation can
answer. A service's postprocessing hook calls ``finish_operation()`` on every operation, then
puts its own shapes around successes and failures. Schemas are plain JSON-schema dicts (OpenAPI
3.0), written from the code that produces each answer; each service's tests check real answers
against them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TypeVar

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema

Schema = dict[str, Any]
Error = TypeVar("Error")

STRING: Schema = {"type": "string"}
INTEGER: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
BOOLEAN: Schema = {"type": "boolean"}
TIMESTAMP: Schema = {"type": "string", "format": "date-time"}
NULLABLE_STRING: Schema = {"type": "string", "nullable": True}
NULLABLE_TIMESTAMP: Schema = {"type": "string", "format": "date-time", "nullable": True}
URL: Schema = {"type": "string", "format": "uri"}
BINARY: Schema = {"type": "string", "format": "binary"}
ANY_OBJECT: Schema = {"type": "object", "additionalProperties": True}


def ref(name: str) -> Schema:
    return {"$ref": f"#/components/schemas/{name}"}


def record(properties: dict[str, Schema], *, optional: Iterable[str] = ()) -> Schema:
    """An object with exactly ``properties``, each required unless named in ``optional``."""
    schema: Schema = {"type": "object", "properties": properties, "additionalProperties": False}
    left_out = set(optional)
    if required := [name for name in properties if name not in left_out]:
        schema["required"] = required  # OpenAPI 3.0 refuses an empty list
    return schema


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def mapping(values: Schema) -> Schema:
    return {"type": "object", "additionalProperties": values}


def one_of(values: Iterable[str]) -> Schema:
    return {"type": "string", "enum": list(values)}


def query(name: str, schema: Schema, description: str) -> OpenApiParameter:
    return OpenApiParameter(name, schema, OpenApiParameter.QUERY, description=description)


def path(name: str, description: str, schema: Schema = STRING) -> OpenApiParameter:
    return OpenApiParameter(name, schema, OpenApiParameter.PATH, description=description)


def described(
    summary: str,
    *,
    response: Schema | None,
    body: Schema | None = None,
    media_type: str = "application/json",
    parameters: Iterable[OpenApiParameter] = (),
    error_codes: Iterable[str] = (),
    detail: bool = False,
    status: int = 200,
    operation_id: str | None = None,
) -> Any:
    """``extend_schema`` for one operation, whose success answers ``status``. ``detail`` adds the
    record's ``{id}`` of a router's detail route; ``operation_id`` names an operation whose
    generated name would repeat another's. Both bodies travel as extensions that
    ``finish_operation`` puts in place: drf-spectacular documents no request body on a DELETE
    (bulk deletions have one), and makes a list action's answer an array (ours are objects)."""
    extensions: dict[str, Any] = {
        "x-error-codes": sorted(set(error_codes)),
        "x-response": response if response is not None else record({}),
    }
    if body is not None:
        extensions["x-body"] = {media_type: {"schema": body}}
    return extend_schema(
        summary=summary,
        request=None,
        responses={status: OpenApiResponse(description="Success")},
        operation_id=operation_id,
        parameters=[*([path("id", "The record's id.")] if detail else []), *parameters],
        extensions=extensions,
    )


def finish_operation(operation: Schema, names: dict[str, str]) -> list[str]:
    """Name path parameters as the contract does (``names``: from the code's name, ``id``
    included), set the request body, and return the error codes the operation declared."""
    for parameter in operation.get("parameters", []):
        if parameter.get("in") == "path":
            parameter["name"] = names.get(parameter["name"], parameter["name"])
    operation.pop("requestBody", None)
    if body := operation.pop("x-body", None):
        operation["requestBody"] = {"required": True, "content": body}
    if "x-response" in operation:
        content = {"application/json": {"schema": operation.pop("x-response")}}
        [success] = [r for status, r in operation["responses"].items() if str(status)[0] == "2"]
        success["content"] = content
    return operation.pop("x-error-codes", [])


def contract_path(route: str, names: dict[str, str]) -> str:
    """``route`` without its trailing slash and with each ``{name}`` renamed by ``names``."""
    renamed = re.sub(r"\{(\w+)\}", lambda m: "{" + names.get(m.group(1), m.group(1)) + "}", route)
    return renamed.rstrip("/")


def error_classes(base: type[Error]) -> list[type[Error]]:
    """``base`` and every class below it."""
    return [base, *(sub for child in base.__subclasses__() for sub in error_classes(child))]
