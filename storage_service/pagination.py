"""Page-number pagination with the contract's pagination object and strict parameters."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers

from storage_service.serialization import QueryPositiveInteger

DEFAULT_LIMIT = 20
PAGE_PARAMETERS = ("page", "limit")
MAX_LIMIT = 100


@dataclass(frozen=True)
class PageRequest:
    page: int
    limit: int


class PageQuerySerializer(serializers.Serializer):
    """``page`` and ``limit`` of a list's query string, read as one ``page`` (a PageRequest)."""

    page = QueryPositiveInteger(default=1)
    limit = QueryPositiveInteger(maximum=MAX_LIMIT, default=DEFAULT_LIMIT)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        page = PageRequest(page=attrs.pop("page"), limit=attrs.pop("limit"))
        return {**attrs, "page": page}


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
