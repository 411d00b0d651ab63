"""Ranked lookup of an organisation's memories, and noting which memories were used.

``recall.search`` ranks ids; this reads the memories it names and records their use in
``last_used_at``, which recall and the context block both do.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from django.db import connection, transaction
from django.db.models import Q

from memory_service import clock
from memory_service.accounts.models import Organisation
from memory_service.memories.models import Memory
from memory_service.recall.search import search

# last_used_at is written at most this often per memory, so that reads rarely write.
LAST_USED_RESOLUTION = timedelta(seconds=60)


@dataclass(frozen=True)
class Hit:
    """One ranked match, with the query's words it matched on."""

    id: str
    content: str
    tier: str
    kind: str
    score: float
    reason: str


def memories_recall(*, org: Organisation, query: str, limit: int) -> list[Hit]:
    """Return ``org``'s memories that best match ``query``, best first, at most ``limit``."""
    matches = search(org=org, query=query, limit=limit)
    if not matches:
        return []  # nothing to read or to mark as used
    fields = ("id", "content", "kind", "tier", "last_used_at")
    by_id = Memory.objects.for_org(org).only(*fields).in_bulk([m.memory_id for m in matches])
    hits = [
        Hit(
            id=memory.id,
            content=memory.content,
            tier=memory.tier,
            kind=memory.kind,
            score=match.score,
            reason="matched: " + ", ".join(match.words),
        )
        for match in matches
        if (memory := by_id.get(match.memory_id)) is not None
    ]
    memories_touch(org=org, memories=by_id.values())
    return hits


class Used(Protocol):
    """Anything that names a memory and when it was last used: a Memory, or a row of one."""

    @property
    def id(self) -> str: ...

    @property
    def last_used_at(self) -> datetime | None: ...


def memories_touch(*, org: Organisation, memories: Iterable[Used]) -> None:
    """Record that ``memories`` were used, at most once per resolution period each."""
    memories = list(memories)
    now = clock.now()
    since = now - LAST_USED_RESOLUTION
    if all(m.last_used_at is not None and m.last_used_at >= since for m in memories):
        return  # the common case for repeated reads: no write at all
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=since)
    ids = [memory.id for memory in memories]
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # lastUsedAt is a hint: a crash may lose its last moments, and a read need not
            # wait for the write-ahead log to reach the disk for it.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
        Memory.objects.for_org(org).filter(stale, id__in=ids).update(last_used_at=now)
