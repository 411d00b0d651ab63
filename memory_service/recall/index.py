"""Index maintenance: adding memories to the inverted index and removing them.

A memory is known here only as an ``Entry``: its organisation, its id and the text it is found
by. The memories app builds entries and calls these inside its own transaction, so that a
memory, its postings and the index stats recall reads change together. A memory without a
single term is not indexed: it can never match, and this keeps the index stats exactly what the
blocks hold.

Each function updates the organisation's IndexStats row first. That row lock, held to the end of
the caller's transaction, orders all index writes of one organisation: two transactions never
append to the same blocks at once, cannot deadlock on them, and see each other's document
numbers.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import F, PositiveBigIntegerField, Value
from django.db.models.functions import Greatest

from memory_service.recall.block_encoding import chunk_of, document_number, pack, unpack
from memory_service.recall.models import MAX_SMALL, Document, IndexStats, PostingBlock
from memory_service.recall.text import terms

BATCH_SIZE = 2000
# Blocks per upsert: six parameters each, well within SQLite's limit.
BLOCK_BATCH_SIZE = 500

BlockKey = tuple[str, int, int, int]  # term, length, tf, chunk


@dataclass(frozen=True)
class Entry:
    """A memory as the index takes it: whose it is, its id, and the text it is found by."""

    org_id: str
    memory_id: str
    text: str


def index_entries(entries: Iterable[Entry]) -> None:
    """Enter memories not yet indexed, writing each block once however many there are."""
    by_org: dict[str, list[Document]] = defaultdict(list)
    for entry in entries:
        document = _document(entry)
        if document is not None:
            by_org[entry.org_id].append(document)
    # Inside the caller's transaction no savepoint is needed: a failure here fails the caller.
    with transaction.atomic(savepoint=False):
        for org_id, documents in sorted(by_org.items()):
            length = sum(document.length for document in documents)
            _add_to_index_stats(org_id, documents=len(documents), length=length)
            _assign_free_numbers(org_id, documents)
            Document.objects.bulk_create(documents, batch_size=BATCH_SIZE)
            _add_to_blocks(org_id, documents)


def unindex(*, org_id: str, memory_id: str) -> None:
    """Take a memory out of the index and out of its organisation's stats (if it is there)."""
    with transaction.atomic():
        _lock_index_stats(org_id)
        document = Document.objects.filter(organisation_id=org_id, memory_id=memory_id).first()
        if document is None:
            return
        _remove_from_blocks(document)
        document.delete()
        rows = IndexStats.objects.filter(organisation_id=org_id)
        rows.update(
            documents=_clamped_plus("documents", -1),
            total_length=_clamped_plus("total_length", -document.length),
        )


def reindex(entry: Entry) -> None:
    """Index a memory anew after the text it is found by changed."""
    with transaction.atomic():
        unindex(org_id=entry.org_id, memory_id=entry.memory_id)
        index_entries([entry])


def indexed_terms(text: str) -> tuple[int, dict[str, int]]:
    """Return the document length ``text`` is indexed with and its {term: tf} (length 0: no
    terms)."""
    counts = Counter(terms(text))
    tfs = {term: min(tf, MAX_SMALL) for term, tf in sorted(counts.items())}
    return min(sum(counts.values()), MAX_SMALL), tfs


def postings_by_block(documents: Iterable[Document]) -> dict[BlockKey, list[int]]:
    """Return the postings each block gains from ``documents`` (anything with their fields)."""
    added: dict[BlockKey, list[int]] = defaultdict(list)
    for document in documents:
        for term, tf in document.terms.items():
            added[(term, document.length, tf, chunk_of(document.number))].append(document.number)
    return added


def _document(entry: Entry) -> Document | None:
    length, tfs = indexed_terms(entry.text)
    if not length:
        return None
    return Document(
        memory_id=entry.memory_id,
        organisation_id=entry.org_id,
        number=document_number(entry.memory_id),
        length=length,
        terms=tfs,
    )


def _assign_free_numbers(org_id: str, documents: list[Document]) -> None:
    """Move any document whose number is taken to the next free one (see ``block_encoding``)."""
    held = Document.objects.filter(organisation_id=org_id)
    wanted = {document.number for document in documents}
    taken = set(held.filter(number__in=wanted).values_list("number", flat=True))
    for document in documents:
        while document.number in taken or (
            document.number not in wanted and held.filter(number=document.number).exists()
        ):
            document.number += 1
        taken.add(document.number)


def _clamped_plus(field: str, delta: int) -> Greatest:
    # Clamped at zero so that a drifted counter cannot fail a deletion on the column's check.
    return Greatest(F(field) + delta, Value(0), output_field=PositiveBigIntegerField())


def _lock_index_stats(org_id: str) -> None:
    """Take the organisation's IndexStats row lock (a no-op on SQLite, which locks the database)."""
    list(IndexStats.objects.select_for_update().filter(organisation_id=org_id).values_list("pk"))


def _add_to_index_stats(org_id: str, *, documents: int, length: int) -> None:
    """Add memories to the organisation's stats in one statement, creating the row on first use."""
    table = IndexStats._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (organisation_id, documents, total_length) VALUES (%s, %s, %s)"  # noqa: S608
            f" ON CONFLICT (organisation_id) DO UPDATE SET"
            f" documents = {table}.documents + excluded.documents,"
            f" total_length = {table}.total_length + excluded.total_length",
            [org_id, documents, length],
        )


def _add_to_blocks(org_id: str, documents: list[Document]) -> None:
    """Append the documents' postings to their blocks in one upsert (batches of them on SQLite)."""
    table = PostingBlock._meta.db_table
    blocks = [
        (*key, pack(numbers)) for key, numbers in sorted(postings_by_block(documents).items())
    ]
    insert = f"INSERT INTO {table} (organisation_id, term, length, tf, chunk, numbers)"
    joined = f"{table}.numbers || excluded.numbers"
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # Six arrays rather than six parameters a block: psycopg would split the query
            # around thousands of placeholders one by one.
            cursor.execute(
                f"{insert} SELECT %s, * FROM unnest(%s::text[], %s::int[], %s::int[],"  # noqa: S608
                f" %s::int[], %s::bytea[]) {_ON_BLOCK_CONFLICT} DO UPDATE SET numbers = {joined}",
                [org_id, *(list(column) for column in zip(*blocks, strict=True))],
            )
            return
        for start in range(0, len(blocks), BLOCK_BATCH_SIZE):
            batch = blocks[start : start + BLOCK_BATCH_SIZE]
            cursor.execute(
                f"{insert} VALUES {', '.join(['(%s, %s, %s, %s, %s, %s)'] * len(batch))}"
                # SQLite's || makes text of its operands.
                f" {_ON_BLOCK_CONFLICT} DO UPDATE SET numbers = CAST({joined} AS BLOB)",
                [value for block in batch for value in (org_id, *block)],
            )


_ON_BLOCK_CONFLICT = "ON CONFLICT (organisation_id, term, length, tf, chunk)"


def _remove_from_blocks(document: Document) -> None:
    """Remove the document's postings from each block they were appended to."""
    chunk = chunk_of(document.number)
    blocks = PostingBlock.objects.filter(
        organisation_id=document.organisation_id,
        term__in=sorted(document.terms),
        length=document.length,
        chunk=chunk,
    )
    for block in blocks.order_by("term", "tf"):
        if document.terms.get(block.term) != block.tf:
            continue
        numbers = [number for number in unpack(block.numbers) if number != document.number]
        if numbers:
            PostingBlock.objects.filter(pk=block.pk).update(numbers=pack(numbers))
        else:
            block.delete()
