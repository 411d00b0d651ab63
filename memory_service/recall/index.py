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

from django.db import transaction
from django.db.models import F, PositiveBigIntegerField, Value
from django.db.models.functions import Greatest, Least

from memory_service.memories.models import Memory
from memory_service.recall.models import MAX_SMALL, IndexStats, Posting, TermStats
from memory_service.recall.text import terms

BATCH_SIZE = 5000


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
    with transaction.atomic():
        for org_id, (documents, length) in sorted(totals.items()):
            _add_to_totals(org_id, documents=documents, length=length)
            _add_to_terms(org_id, postings[org_id])
            Posting.objects.bulk_create(postings[org_id], batch_size=BATCH_SIZE)


def unindex_memory(memory: Memory) -> None:
    """Remove ``memory``'s postings and take it out of its organisation's totals."""
    with transaction.atomic():
        _lock_totals(memory.organisation_id)
        held = Posting.objects.filter(memory=memory)
        found = list(held.values_list("term", "length"))
        if found and held.delete()[0]:
            _add_to_totals(memory.organisation_id, documents=-1, length=-found[0][1])
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


def _add_to_totals(org_id: str, *, documents: int, length: int) -> None:
    """Add to the organisation's totals with one UPDATE, creating the row on first use."""
    values = {
        "documents": _plus("documents", documents),
        "total_length": _plus("total_length", length),
    }
    rows = IndexStats.objects.filter(organisation_id=org_id)
    if rows.update(**values):
        return
    # INSERT ... ON CONFLICT DO NOTHING: when two first writers race, neither fails, and each
    # then adds its own share with the UPDATE below.
    IndexStats.objects.bulk_create([IndexStats(organisation_id=org_id)], ignore_conflicts=True)
    rows.update(**values)


def _add_to_terms(org_id: str, postings: list[Posting]) -> None:
    """Count new postings in their terms' stats, one UPDATE per distinct change."""
    changes: dict[str, list[int]] = {}
    for posting in postings:
        change = changes.setdefault(posting.term, [0, 0, MAX_SMALL])
        change[0] += 1
        change[1] = max(change[1], posting.tf)
        change[2] = min(change[2], posting.length)
    TermStats.objects.bulk_create(
        [TermStats(organisation_id=org_id, term=term) for term in sorted(changes)],
        ignore_conflicts=True,
        batch_size=BATCH_SIZE,
    )
    groups: dict[tuple[int, int, int], list[str]] = defaultdict(list)
    for term, change in changes.items():
        groups[tuple(change)].append(term)
    rows = TermStats.objects.filter(organisation_id=org_id)
    for (documents, max_tf, min_length), terms_ in sorted(groups.items()):
        rows.filter(term__in=sorted(terms_)).update(
            documents=F("documents") + documents,
            max_tf=Greatest(F("max_tf"), Value(max_tf)),
            min_length=Least(F("min_length"), Value(min_length)),
        )


def _take_from_terms(org_id: str, terms_: list[str]) -> None:
    """Take one memory out of its terms' counts; the bounds stay, still true."""
    rows = TermStats.objects.filter(organisation_id=org_id, term__in=sorted(terms_))
    rows.update(documents=_plus("documents", -1))
