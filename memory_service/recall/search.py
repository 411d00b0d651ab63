"""Ranked lookup: BM25 over content, subject and domain; ``scoring`` keeps it fast."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import Q

from memory_service import clock
from memory_service.accounts.models import Organisation
from memory_service.memories.models import Memory
from memory_service.recall.index import document_terms
from memory_service.recall.models import IndexStats, TermStats
from memory_service.recall.scoring import SCALE, Bm25, Ranked, Term, rank
from memory_service.recall.text import query_words

# last_used_at is written at most this often per memory, so that recalls rarely write.
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


def recall(*, org: Organisation, query: str, limit: int) -> list[Hit]:
    """Return ``org``'s memories that best match ``query``, best first, at most ``limit``."""
    words = query_words(query)
    if not words:
        return []
    rows = _held_terms(org.pk, sorted(words))
    if not rows or not rows[0][4]:
        return []
    documents, total_length = rows[0][4:]
    terms = [Term(*row[:4]) for row in rows]
    model = Bm25.for_query(documents=documents, total_length=total_length, terms=terms)
    return _hits(org, rank(org_id=org.pk, model=model, limit=limit), words)


def _held_terms(org_id: str, words: list[str]) -> list[tuple]:
    """Return each held query term's stats, with the organisation's totals, in one statement."""
    terms, totals = TermStats._meta.db_table, IndexStats._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT t.term, t.documents, t.max_tf, t.min_length, s.documents, s.total_length"  # noqa: S608
            f" FROM {terms} t JOIN {totals} s ON s.organisation_id = t.organisation_id"
            f" WHERE t.organisation_id = %s AND t.documents > 0"
            f" AND t.term IN ({', '.join(['%s'] * len(words))})",
            [org_id, *words],
        )
        return cursor.fetchall()


def _hits(org: Organisation, ranked: Ranked, words: dict[str, str]) -> list[Hit]:
    """Return the ranked memories, naming the query's words each holds; note their use."""
    ids = [memory_id for memory_id, _ in ranked]
    held = Memory.objects.for_org(org).filter(id__in=ids).order_by()
    fields = ("id", "content", "subject", "domain", "kind", "tier", "last_used_at")
    memories = held.only(*fields).in_bulk()
    hits = []
    for memory_id, score in ranked:
        memory = memories.get(memory_id)
        if memory is None:  # deleted since it was ranked
            continue
        # The memory's own terms are its postings' terms: no query needed to name the matches.
        its_terms = set(document_terms(memory))
        names = [word for term, word in words.items() if term in its_terms]
        hits.append(
            Hit(
                id=memory.id,
                content=memory.content,
                tier=memory.tier,
                kind=memory.kind,
                score=round(score / SCALE, 6),
                reason="matched: " + ", ".join(names),
            )
        )
    _touch(org, list(memories.values()))
    return hits


def _touch(org: Organisation, memories: list[Memory]) -> None:
    """Record that the memories were recalled, at most once per resolution period each."""
    now = clock.now()
    since = now - LAST_USED_RESOLUTION
    if all(m.last_used_at is not None and m.last_used_at >= since for m in memories):
        return  # the common case for repeated recalls: no write at all
    stale = Q(last_used_at__isnull=True) | Q(last_used_at__lt=since)
    ids = [memory.id for memory in memories]
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # lastUsedAt is a hint: a crash may lose its last moments, and a recall need not
            # wait for the write-ahead log to reach the disk for it.
            with connection.cursor() as cursor:
                cursor.execute("SET LOCAL synchronous_commit = off")
        Memory.objects.for_org(org).filter(stale, id__in=ids).update(last_used_at=now)
