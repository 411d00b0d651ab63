"""The inverted index recall reads: one posting per (memory, term), and per-organisation totals."""

from __future__ import annotations

from django.db import models

from memory_service.accounts.models import Organisation
from memory_service.memories.models import Memory
from memory_service.recall.text import MAX_TERM_LENGTH

# The largest value of the small integer columns.
MAX_SMALL = 32767


class Posting(models.Model):
    """Term ``term`` occurs ``tf`` times in ``memory``, whose text is ``length`` terms long.

    ``organisation`` and ``length`` are copied from the memory so that scoring a term reads only
    this table's index.
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, db_index=False)
    # The (memory, term, ...) index below leads with memory, so the foreign key needs no other.
    memory = models.ForeignKey(
        Memory, on_delete=models.CASCADE, related_name="postings", db_index=False
    )
    term = models.CharField(max_length=MAX_TERM_LENGTH)
    tf = models.PositiveSmallIntegerField()
    length = models.PositiveSmallIntegerField()

    class Meta:
        indexes = [
            # Every column a key: a term's postings are read from the index alone, and within one
            # tf they come best first (shortest first, then by memory id), which lets recall read
            # only the head of a common term's list.
            models.Index(
                fields=["organisation", "term", "tf", "length", "memory"],
                name="posting_org_term",
            ),
            # Scores given memories from the index alone (organisation too, so that one query
            # can also hash them against the first index). Not unique: indexing writes one
            # posting per distinct term by construction, and a unique violation here would
            # read to the memory services as a concurrent duplicate of the memory itself.
            models.Index(
                fields=["memory", "term", "tf", "length", "organisation"],
                name="posting_memory_term",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.term} in {self.memory_id}"


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


class TermStats(models.Model):
    """How many of an organisation's memories hold ``term`` (BM25's document frequency), and
    bounds on its postings that let recall skip memories that cannot rank.

    Kept as counters because counting postings costs time in proportion to the count: a term
    held by half of 100,000 memories takes milliseconds to count, and a recall needs it at once.
    ``max_tf`` and ``min_length`` only ever move outwards (a deletion leaves them), so they stay
    true bounds: no posting of the term has a larger tf or a shorter length.
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, db_index=False)
    term = models.CharField(max_length=MAX_TERM_LENGTH)
    documents = models.PositiveIntegerField(default=0)
    max_tf = models.PositiveSmallIntegerField(default=0)
    min_length = models.PositiveSmallIntegerField(default=MAX_SMALL)

    class Meta:
        verbose_name_plural = "term stats"
        constraints = [
            models.UniqueConstraint(fields=["organisation", "term"], name="termstats_org_term"),
        ]

    def __str__(self) -> str:
        return f"{self.term}: {self.documents} memories"
