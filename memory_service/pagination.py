"""The newest-first lists (memories, tensions): pages behind an opaque cursor.

A cursor is the (createdAt, id) of the last record shown, so a page continues exactly after it
however many records arrive meanwhile; it is base64, so clients treat it as opaque.
"""

from __future__ import annotations

import base64
import binascii
from datetime import datetime
from typing import Any

from django.db.models import Q, QuerySet

from memory_service import errors


def encode_cursor(record: Any) -> str:
    """Return the cursor that continues after ``record`` (it has ``created_at`` and ``id``)."""
    raw = f"{record.created_at.isoformat()}|{record.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """Return the (createdAt, id) a cursor continues after, or fail on a cursor we did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, record_id = raw.split("|", 1)
        return datetime.fromisoformat(created), record_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise errors.InvalidRequest(
            [errors.issue("cursor", "Not a cursor this service gave out.")]
        ) from None


def newest_first_page(
    records: QuerySet, *, limit: int, cursor: str | None
) -> tuple[list[Any], str | None]:
    """Return up to ``limit`` of ``records`` (ordered newest first) after ``cursor``, and the
    cursor of the next page or None."""
    if cursor:
        created, record_id = decode_cursor(cursor)
        records = records.filter(
            Q(created_at__lt=created) | Q(created_at=created, id__lt=record_id)
        )
    page = list(records[: limit + 1])
    next_cursor = encode_cursor(page[limit - 1]) if len(page) > limit else None
    return page[:limit], next_cursor
