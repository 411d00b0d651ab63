"""Ranked lookup: BM25 over content, subject and domain; ``scoring`` ranks, this reads."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta

from django.db import connection, transaction
from django.db.models import F, Q, Sum
from django.db.models.functions import Length

from memory_service import clock
from memory_service.accounts.models import Organisation
from memory_service.memories.models import Memory
from memory_service.recall.models import Document, IndexStats, PostingBlock
from memory_service.recall.numbers import NUMBER_SIZE, unpack
from memory_service.recall.scoring import SCALE, Block, Bm25, Ranked, rank
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
    documents, total_length, blocks = _read_index(org.pk, sorted(words))
    if not blocks:
        return []
    df: dict[str, int] = defaultdict(int)
    for block in blocks:
        df[block.term] += len(block.numbers) // NUMBER_SIZE
    model = Bm25.for_query(documents=documents, total_length=total_length, df=df)
    return _hits(org, rank(model, blocks, limit), words)


def holders(org: Organisation, terms: Iterable[str], *, most: int) -> dict[str, list[str]]:
    """Return, for each of ``terms`` that at most ``most`` memories hold, their ids."""
    blocks = PostingBlock.objects.filter(organisation=org, term__in=sorted(set(terms)))
    sizes = blocks.values("term").annotate(size=Sum(Length("numbers"))).order_by()
    rare = sorted(row["term"] for row in sizes if row["size"] // NUMBER_SIZE <= most)
    numbers: dict[str, list[int]] = defaultdict(list)
    for term, data in blocks.filter(term__in=rare).values_list("term", "numbers"):
        numbers[term] += unpack(data)
    wanted = sorted({number for found in numbers.values() for number in found})
    documents = Document.objects.filter(organisation=org, number__in=wanted)
    ids = dict(documents.values_list("number", "memory_id"))
    return {term: [ids[n] for n in found if n in ids] for term, found in numbers.items()}


def _read_index(org_id: str, terms: list[str]) -> tuple[int, int, list[Block]]:
    """Return the organisation's totals and every block of ``terms``, in one statement (so they
    agree with each other whatever is being filed meanwhile)."""
    totals, blocks = IndexStats._meta.db_table, PostingBlock._meta.db_table
    rows = _fetch_binary(
        f"SELECT s.documents, s.total_length, b.term, b.length, b.tf, b.numbers"  # noqa: S608
        f" FROM {totals} s LEFT JOIN {blocks} b ON b.organisation_id = s.organisation_id"
        f" AND b.term IN ({', '.join(['%s'] * len(terms))})"
        f" WHERE s.organisation_id = %s",
        [*terms, org_id],
    )
    if not rows:
        return 0, 0, []
    blocks = [
        Block(term, length, tf, bytes(numbers))
        for _, _, term, length, tf, numbers in rows
        if term is not None  # the organisation's totals, joined to no block
    ]
    return rows[0][0], rows[0][1], blocks


def _fetch_binary(sql: str, params: list[object]) -> list[tuple]:
    """Return the rows of ``sql``; from PostgreSQL in its binary format, in which a block's
    bytes arrive as they are instead of as hexadecimal text twice their size (half the time of a
    query of common terms)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    from django.db.backends.postgresql.base import ServerBindingCursor
    from psycopg.pq import Format

    # Django's cursors bind parameters client-side, which psycopg allows with text results only.
    # This one binds server-side, on the same connection and transaction, and goes through
    # Django's wrapper like any other (errors, query logging, execute wrappers).
    connection.ensure_connection()
    raw = ServerBindingCursor(connection.connection)
    raw.format = Format.BINARY
    make = connection.make_debug_cursor if connection.queries_logged else connection.make_cursor
    with make(raw) as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()


def _hits(org: Organisation, ranked: Ranked, words: dict[str, str]) -> list[Hit]:
    """Return the ranked memories, naming the query's words each holds; note their use."""
    numbers = [number for number, _ in ranked]
    # The document's organisation too, so that the database finds them by its (organisation,
    # number) index.
    mine = Memory.objects.for_org(org).filter(document__organisation=org)
    held = mine.filter(document__number__in=numbers).order_by()
    fields = ("id", "content", "kind", "tier", "last_used_at")
    # The terms it was indexed under name the matches, without analysing its text again.
    held = held.only(*fields).annotate(
        number=F("document__number"), indexed_terms=F("document__terms")
    )
    memories = {memory.number: memory for memory in held}
    hits = []
    for number, score in ranked:
        memory = memories.get(number)
        if memory is None:  # deleted since it was ranked
            continue
        names = [word for term, word in words.items() if term in memory.indexed_terms]
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
