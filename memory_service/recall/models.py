"""The inverted index recall reads: each memory's document number and terms, the postings of
each term packed into blocks, and per-organisation collection statistics for BM25.

Memories are known here by their id and their text alone (see ``index.Entry``).
"""

from __future__ import annotations

from django.db import models

from memory_service.accounts.models import Organisation
from memory_service.recall.text import MAX_TERM_LENGTH

# The largest value of the small integer columns.
MAX_SMALL = 32767


class Document(models.Model):
    """A memory as the index knows it: its document number, its length and its terms.

    ``number`` orders like the memory's id (see ``block_encoding``), so recall ranks and breaks
    ties on numbers alone. ``terms`` ({term: tf}) is what was indexed, so that taking the memory out
    removes exactly that, whatever has changed on the memory since.
    """

    # The memory's id, not a foreign key: recall knows nothing of the memories app, which
    # unindexes a memory in the transaction that forgets it.
    memory_id = models.CharField(primary_key=True, max_length=32)
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, db_index=False)
    number = models.BigIntegerField()
    length = models.PositiveSmallIntegerField()
    terms = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["organisation", "number"], name="document_org_number"),
        ]

    def __str__(self) -> str:
        return f"{self.memory_id} as {self.number}"


class PostingBlock(models.Model):
    """The postings (document numbers) of the memories of ``length`` terms that hold ``term``
    ``tf`` times.

    Recall reads whole blocks and scores in Python: a posting costs 8 bytes to read and well
    under a microsecond to score, where one row per posting cost the database a microsecond or
    more each. Every posting in a block has the same impact on a score (BM25 depends only on tf
    and length), and a memory's postings all carry its length, so recall can finish the
    memories of one length before it looks at the next. ``chunk`` splits a term's postings by
    document number range, which keeps the block an insert rewrites small.
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, db_index=False)
    term = models.CharField(max_length=MAX_TERM_LENGTH)
    length = models.PositiveSmallIntegerField()
    tf = models.PositiveSmallIntegerField()
    chunk = models.PositiveSmallIntegerField()
    # Document numbers as signed 64-bit little-endian integers, in no particular order.
    numbers = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "term", "length", "tf", "chunk"], name="block_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.term} (tf {self.tf}, length {self.length}, chunk {self.chunk})"


class IndexStats(models.Model):
    """How many memories an organisation's index holds and their total length, for BM25's avgdl."""

    organisation = models.OneToOneField(
        Organisation, on_delete=models.CASCADE, primary_key=True, related_name="index_stats"
    )
    documents = models.PositiveIntegerField(default=0)
    total_length = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name_plural = "index stats"

    def __str__(self) -> str:
        return f"{self.organisation}: {self.documents} memories"
