"""Entering memories in the recall index and taking them out.

The services call these inside their own transaction, so that a memory, its postings and the
counters recall reads (IndexStats, TermStats) change together. A memory without a single term gets
no postings and is not counted: it can never match, and this keeps every counter exactly what
the postings say.

Each function updates the organisation's IndexStats row first. That row lock, held to the end of
the caller's transaction, orders all index writes of one organisation, so two transactions that
each file several memories cannot deadlock on the TermStats rows they share.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable

from django.db import connection, transaction
from django.db.models import F, PositiveBigIntegerField, Value
from django.db.models.functions import Greatest

from memory_service.memories.models import Memory
from memory_service.recall.models import MAX_SMALL, IndexStats, Posting, TermStats
from memory_service.recall.text import terms

BATCH_SIZE = 5000
# Terms per upsert of their stats: five parameters each, well within SQLite's limit.
TERM_BATCH_SIZE = 150


def document_terms(memory: Memory) -> list[str]:
    """Return the terms recall matches ``memory`` by: its content, subject and domain as one."""
    return terms(" ".join((memory.content, memory.subject, memory.domain)))


def index_memory(memory: Memory) -> None:
    """Add ``memory``'s postings and count it in its organisation's totals."""
    index_memories([memory])


def index_memories(memories: Iterable[Memory]) -> None:
    """Add the postings of memories not yet indexed, updating each counter once (for backfills)."""
    postings: dict[str, list[Posting]] = defaultdict(list)
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for memory in memories:
        found = _postings(memory)
        if found:
            postings[memory.organisation_id] += found
            totals[memory.organisation_id][0] += 1
            totals[memory.organisation_id][1] += found[0].length
    # Inside the caller's transaction no savepoint is needed: a failure here fails the caller.
    with transaction.atomic(savepoint=False):
        for org_id, (documents, length) in sorted(totals.items()):
            _count_in_totals(org_id, documents=documents, length=length)
            _add_to_terms(org_id, postings[org_id])
            Posting.objects.bulk_create(postings[org_id], batch_size=BATCH_SIZE)


def unindex_memory(memory: Memory) -> None:
    """Remove ``memory``'s postings and take it out of its organisation's totals."""
    with transaction.atomic():
        _lock_totals(memory.organisation_id)
        held = Posting.objects.filter(memory=memory)
        found = list(held.values_list("term", "length"))
        if found and held.delete()[0]:
            _take_from_totals(memory.organisation_id, length=found[0][1])
            _take_from_terms(memory.organisation_id, [term for term, _ in found])


def reindex_memory(memory: Memory) -> None:
    """Replace ``memory``'s postings after its content, subject or domain changed."""
    with transaction.atomic():
        unindex_memory(memory)
        index_memory(memory)


def _postings(memory: Memory) -> list[Posting]:
    counts = Counter(document_terms(memory))
    length = min(sum(counts.values()), MAX_SMALL)
    return [
        Posting(
            organisation_id=memory.organisation_id,
            memory=memory,
            term=term,
            tf=min(tf, MAX_SMALL),
            length=length,
        )
        for term, tf in counts.items()
    ]


def _plus(field: str, delta: int) -> Greatest:
    # Floored at zero so that a drifted counter cannot fail a deletion on the column's check.
    return Greatest(F(field) + delta, Value(0), output_field=PositiveBigIntegerField())


def _lock_totals(org_id: str) -> None:
    """Take the organisation's IndexStats row lock (a no-op on SQLite, which locks the database)."""
    list(IndexStats.objects.select_for_update().filter(organisation_id=org_id).values_list("pk"))


def _take_from_totals(org_id: str, *, length: int) -> None:
    """Take one memory of ``length`` terms out of the organisation's totals."""
    rows = IndexStats.objects.filter(organisation_id=org_id)
    rows.update(documents=_plus("documents", -1), total_length=_plus("total_length", -length))


def _count_in_totals(org_id: str, *, documents: int, length: int) -> None:
    """Add memories to the organisation's totals in one statement, creating the row on first use."""
    table = IndexStats._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (organisation_id, documents, total_length) VALUES (%s, %s, %s)"  # noqa: S608
            f" ON CONFLICT (organisation_id) DO UPDATE SET"
            f" documents = {table}.documents + excluded.documents,"
            f" total_length = {table}.total_length + excluded.total_length",
            [org_id, documents, length],
        )


def _add_to_terms(org_id: str, postings: list[Posting]) -> None:
    """Count new postings in their terms' stats: one upsert per batch of terms, in term order."""
    changes: dict[str, list[int]] = {}
    for posting in postings:
        change = changes.setdefault(posting.term, [0, 0, MAX_SMALL])
        change[0] += 1
        change[1] = max(change[1], posting.tf)
        change[2] = min(change[2], posting.length)
    table = TermStats._meta.db_table
    # GREATEST and LEAST are spelled MAX and MIN (with two arguments) in SQLite.
    greatest, least = ("GREATEST", "LEAST") if connection.vendor == "postgresql" else ("MAX", "MIN")
    ordered = sorted(changes.items())
    with connection.cursor() as cursor:
        for start in range(0, len(ordered), TERM_BATCH_SIZE):
            batch = ordered[start : start + TERM_BATCH_SIZE]
            cursor.execute(
                f"INSERT INTO {table} (organisation_id, term, documents, max_tf, min_length)"  # noqa: S608
                f" VALUES {', '.join(['(%s, %s, %s, %s, %s)'] * len(batch))}"
                f" ON CONFLICT (organisation_id, term) DO UPDATE SET"
                f" documents = {table}.documents + excluded.documents,"
                f" max_tf = {greatest}({table}.max_tf, excluded.max_tf),"
                f" min_length = {least}({table}.min_length, excluded.min_length)",
                [value for term, change in batch for value in (org_id, term, *change)],
            )


def _take_from_terms(org_id: str, terms_: list[str]) -> None:
    """Take one memory out of its terms' counts; the bounds stay, still true."""
    rows = TermStats.objects.filter(organisation_id=org_id, term__in=sorted(terms_))
    rows.update(documents=_plus("documents", -1))
