"""Ranked retrieval: exact top-k BM25 by term-at-a-time MaxScore (Turtle & Flood, 1995), which
scores in full only the essential terms, those whose upper bounds can lift a memory past the
threshold (the k-th best score so far), and looks the others up for the candidates found.

Specific here: one statement reads every posting block of the query's terms with the
organisation's index stats, and ``scoring`` ranks them in Python, going through document lengths
from the shortest and stopping once no longer memory can reach the threshold; a block holds
postings of one impact, so one whose impact cannot help a memory reach it is skipped unread. This
module answers memory ids with their scores and the words they matched on; reading the memories
themselves, and noting their use, is the memories app's business.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

from memory_service.accounts.models import Organisation
from memory_service.recall.block_encoding import POSTING_SIZE, unpack
from memory_service.recall.models import Document, IndexStats, PostingBlock
from memory_service.recall.scoring import SCALE, Block, Bm25, Ranked, rank
from memory_service.recall.text import query_words


@dataclass(frozen=True)
class Match:
    """One ranked memory: its id, its BM25 score and the query's words it holds."""

    memory_id: str
    score: float
    words: list[str]


def search(*, org: Organisation, query: str, limit: int) -> list[Match]:
    """Return the ids of ``org``'s memories that best match ``query``, best first, at most
    ``limit``; equal scores rank by memory id."""
    words = query_words(query)
    if not words:
        return []
    documents, total_length, blocks = _read_index(org.pk, sorted(words))
    if not blocks:
        return []
    df: dict[str, int] = defaultdict(int)
    for block in blocks:
        df[block.term] += len(block.numbers) // POSTING_SIZE
    model = Bm25.for_query(documents=documents, total_length=total_length, df=df)
    return _matches(org, rank(model, blocks, limit), words)


def holders(org: Organisation, terms: Iterable[str], *, most: int) -> dict[str, list[str]]:
    """Return, for each of ``terms`` that at most ``most`` memories hold, their ids."""
    wanted_terms = sorted(set(terms))
    if not wanted_terms:
        return {}
    table = PostingBlock._meta.db_table
    marks = ", ".join(["%s"] * len(wanted_terms))
    # One statement: a common term's blocks are sized, never read.
    rows = _fetch_binary(
        f"SELECT term, numbers FROM {table} WHERE organisation_id = %s AND term IN ({marks})"  # noqa: S608
        f" AND term IN (SELECT term FROM {table} WHERE organisation_id = %s AND term IN ({marks})"
        f" GROUP BY term HAVING SUM(LENGTH(numbers)) <= %s)",
        [org.pk, *wanted_terms, org.pk, *wanted_terms, most * POSTING_SIZE],
    )
    postings: dict[str, list[int]] = defaultdict(list)
    for term, data in rows:
        postings[term] += unpack(bytes(data))
    wanted = sorted({n for found in postings.values() for n in found})
    ids = {number: memory_id for number, memory_id in _documents(org, wanted, "memory_id")}
    return {term: [ids[n] for n in found if n in ids] for term, found in postings.items()}


def _documents(org: Organisation, numbers: list[int], columns: str) -> list[tuple]:
    """Return (number, *columns) of the documents of ``numbers`` that are still indexed."""
    if not numbers:
        return []
    table = Document._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT number, {columns} FROM {table}"  # noqa: S608
            f" WHERE organisation_id = %s AND number IN ({', '.join(['%s'] * len(numbers))})",
            [org.pk, *numbers],
        )
        return cursor.fetchall()


def _read_index(org_id: str, terms: list[str]) -> tuple[int, int, list[Block]]:
    """Return the organisation's index stats and every block of ``terms``, in one statement (so they
    agree with each other whatever is being indexed meanwhile)."""
    stats_table, blocks_table = IndexStats._meta.db_table, PostingBlock._meta.db_table
    rows = _fetch_binary(
        f"SELECT s.documents, s.total_length, b.term, b.length, b.tf, b.numbers"  # noqa: S608
        f" FROM {stats_table} s LEFT JOIN {blocks_table} b"
        " ON b.organisation_id = s.organisation_id"
        f" AND b.term IN ({', '.join(['%s'] * len(terms))})"
        f" WHERE s.organisation_id = %s",
        [*terms, org_id],
    )
    if not rows:
        return 0, 0, []
    blocks = [
        Block(term, length, tf, bytes(numbers))
        for _, _, term, length, tf, numbers in rows
        if term is not None  # the organisation's index stats, joined to no block
    ]
    return rows[0][0], rows[0][1], blocks


def _fetch_binary(sql: str, params: list[str | int]) -> list[tuple]:
    """Return the rows of ``sql``; from PostgreSQL in its binary format, in which a block's
    bytes arrive as they are instead of as hexadecimal text twice their size (half the time of a
    query of common terms)."""
    if connection.vendor != "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return cursor.fetchall()
    from django.db.backends.postgresql.base import (  # type: ignore[attr-defined]
        ServerBindingCursor,  # not in django-stubs
    )
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


def _matches(org: Organisation, ranked: Ranked, words: dict[str, str]) -> list[Match]:
    """Return the ranked document numbers as memory ids, naming the query's words each holds."""
    # The terms it was indexed under name the matches, without analysing its text again.
    indexed_by_number = {
        number: (memory_id, json.loads(terms) if isinstance(terms, str) else terms)  # SQLite: text
        for number, memory_id, terms in _documents(org, [n for n, _ in ranked], "memory_id, terms")
    }
    matches = []
    for number, score in ranked:
        if number not in indexed_by_number:  # taken out of the index since it was ranked
            continue
        memory_id, indexed = indexed_by_number[number]
        names = [word for term, word in words.items() if term in indexed]
        matches.append(Match(memory_id=memory_id, score=round(score / SCALE, 6), words=names))
    return matches
