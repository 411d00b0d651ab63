"""Page-number pagination with the contract's pagination object and strict parameters."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import QuerySet

from storage_service import errors
from storage_service.serialization import positive_int

DEFAULT_LIMIT = 20
PAGE_PARAMETERS = ("page", "limit")
MAX_LIMIT = 100
INTEGER = re.compile(r"-?[0-9]+")


@dataclass(frozen=True)
class PageRequest:
    page: int
    limit: int


def _positive_int(raw: str, name: str, maximum: int | None, problems: dict[str, str]) -> int | None:
    value = positive_int(raw)
    if value is None and not INTEGER.fullmatch(raw):
        problems[name] = "Must be a whole number."
        return None
    if value is None or (maximum is not None and value > maximum):
        problems[name] = f"Must be between 1 and {maximum}." if maximum else "Must be 1 or greater."
        return None
    return value


def page_request(params: Mapping[str, str], problems: dict[str, str]) -> PageRequest:
    """Read ``page`` and ``limit``; each bad one is added to ``problems`` under its own name."""
    page = _positive_int(params.get("page", "1"), "page", None, problems)
    limit = _positive_int(params.get("limit", str(DEFAULT_LIMIT)), "limit", MAX_LIMIT, problems)
    return PageRequest(page=page or 1, limit=limit or DEFAULT_LIMIT)


def parse_page_request(params: Mapping[str, str]) -> PageRequest:
    """Read ``page`` and ``limit`` or fail with INVALID_PARAMETERS naming each bad one."""
    problems: dict[str, str] = {}
    request = page_request(params, problems)
    if problems:
        raise errors.InvalidParameters(**problems)
    return request


def paginate(queryset: QuerySet, request: PageRequest) -> tuple[list, dict]:
    """Return one page of ``queryset`` and its pagination object."""
    total = queryset.count()
    past_the_end = (request.page - 1) * request.limit >= total
    items = [] if past_the_end else list(page_of(queryset, request))
    return items, pagination(request, total)


def page_of(queryset: QuerySet, request: PageRequest) -> QuerySet:
    """The slice of ``queryset`` that ``request`` asks for."""
    offset = (request.page - 1) * request.limit
    return queryset[offset : offset + request.limit]


def pagination(request: PageRequest, total: int) -> dict:
    """The contract's pagination object for a page of ``total`` items."""
    total_pages = math.ceil(total / request.limit) if total else 0
    return {
        "page": request.page,
        "limit": request.limit,
        "total": total,
        "totalPages": total_pages,
        "hasNext": request.page < total_pages,
        "hasPrev": request.page > 1,
    }
