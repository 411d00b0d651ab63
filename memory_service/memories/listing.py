"""Reading memories: one page newest first behind an opaque cursor, and the tier counts."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

from django.db.models import Q

from memory_service import errors
from memory_service.accounts.models import Organisation
from memory_service.memories.models import TIERS, Memory, TierTally


def encode_cursor(memory: Memory) -> str:
    """Return the cursor that continues after ``memory``."""
    raw = f"{memory.created_at.isoformat()}|{memory.id}"
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """Return the (createdAt, id) a cursor continues after, or fail on a cursor we did not make."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, memory_id = raw.split("|", 1)
        return datetime.fromisoformat(created), memory_id
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise errors.InvalidRequest(
            [errors.issue("cursor", "Not a cursor this service gave out.")]
        ) from None


def memories_page(
    *,
    org: Organisation,
    tier: str | None = None,
    kind: str | None = None,
    domain: str | None = None,
    limit: int,
    cursor: str | None = None,
) -> tuple[list[Memory], str | None]:
    """Return up to ``limit`` memories newest first, and the cursor of the next page or None."""
    memories = Memory.objects.for_org(org).newest_first()
    if tier:
        memories = memories.filter(tier=tier)
    if kind:
        memories = memories.filter(kind=kind)
    if domain:
        memories = memories.filter(domain=domain)
    if cursor:
        created, memory_id = decode_cursor(cursor)
        memories = memories.filter(
            Q(created_at__lt=created) | Q(created_at=created, id__lt=memory_id)
        )
    page = list(memories[: limit + 1])
    next_cursor = encode_cursor(page[limit - 1]) if len(page) > limit else None
    return page[:limit], next_cursor


def tier_counts(org: Organisation) -> dict[str, int]:
    """Return how many memories ``org`` holds in each tier, and in all."""
    counts = dict.fromkeys(TIERS, 0)
    counts.update(TierTally.objects.filter(organisation=org).values_list("tier", "count"))
    counts["total"] = sum(counts.values())
    return counts
