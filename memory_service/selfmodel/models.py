"""The self-model: how each domain of an organisation went, what failed there and what helped.

Reliability is ``(2 x 0.8 + successes) / (2 + samples)``: a prior of two samples at 0.8, so that
one failure reads 0.533 and not 0. Times five it is ``(8 + 5s) / (10 + 5n)``, a ratio of integers,
which the database divides exactly once: equal reliabilities compare equal whatever their samples.
A domain is weak below 0.6; in integers ``1.6 + s < 0.6 n`` is ``2 + 2s < 3f``, with no rounding.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

from django.db import models
from django.db.models import F, FloatField, Prefetch
from django.db.models.functions import Cast
from django.db.models.lookups import LessThan
from django.utils import timezone

from memory_service.accounts.models import Organisation
from memory_service.recall.text import terms as index_terms

MAX_DOMAIN_LENGTH = 100
# Case folding can turn one character into up to three ("ß" -> "ss", "ΐ" -> three).
MAX_DOMAIN_KEY_LENGTH = 3 * MAX_DOMAIN_LENGTH
MAX_NOTE_LENGTH = 500
# Per domain and kind: the guardrail shows the latest few, the rest is history nobody reads.
MAX_NOTES_PER_KIND = 20

PRIOR_SAMPLES = 2
PRIOR_RELIABILITY = Fraction(4, 5)
WEAK_BELOW = Fraction(3, 5)

FAILURE_PATTERN, STRATEGY = "failure_pattern", "strategy"
NOTE_KINDS = (FAILURE_PATTERN, STRATEGY)


def reliability(successes: int, failures: int) -> Fraction:
    """Return the exact reliability of a domain with these outcomes."""
    prior = PRIOR_SAMPLES * PRIOR_RELIABILITY
    return (prior + successes) / (PRIOR_SAMPLES + successes + failures)


def domain_key(name: str) -> str:
    """Return the key that makes "Deploys" and " deploys " one domain."""
    return " ".join(name.casefold().split())


def note_key(text: str) -> str:
    """Return the key under which wordings differing only in case and whitespace are one note."""
    return hashlib.sha256(" ".join(text.casefold().split()).encode()).hexdigest()


def name_fields(name: str) -> dict[str, str]:
    """Return the ``key``, ``terms`` and ``anchor`` a domain called ``name`` is stored with."""
    words = sorted(set(index_terms(name)))
    return {
        "key": domain_key(name),
        "terms": " ".join(words),
        # Any one term would do; the longest is usually the rarest in messages.
        "anchor": max(words, key=lambda word: (len(word), word), default=""),
    }


# Weak: 1.6 + s < 0.6 (s + f), times ten and simplified.
_WEAK: LessThan[int] = LessThan(2 + 2 * F("successes"), 3 * F("failures"))
# Reliability times five, (8 + 5s) / (10 + 5n): both sides are exact integers, so the division is
# rounded once and equal reliabilities are equal floats, which keeps ties in key order.
_SCORE = Cast(8 + 5 * F("successes"), FloatField()) / Cast(
    10 + 5 * (F("successes") + F("failures")), FloatField()
)


class DomainQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> DomainQuerySet:
        return self.filter(organisation=org)

    def weak(self) -> DomainQuerySet:
        """Keep the domains whose reliability is below 0.6, compared exactly in integers."""
        return self.filter(_WEAK)

    def with_reliability(self) -> DomainQuerySet:
        """Annotate ``score``, the reliability as the database's float, for ordering."""
        return self.annotate(score=_SCORE)

    def weakest_first(self) -> DomainQuerySet:
        return self.with_reliability().order_by("score", "key")

    def with_notes(self) -> DomainQuerySet:
        """Prefetch each domain's notes, most recently seen first, in one query for all."""
        return self.prefetch_related(latest_notes())


def latest_notes() -> Prefetch:
    """Return the prefetch of domains' notes, most recently seen first."""
    return Prefetch("notes", queryset=Note.objects.order_by("-last_seen_at", "-id"))


class Domain(models.Model):
    """A named area of work, its outcomes counted; ``key`` is the name case- and space-folded."""

    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="selfmodel_domains"
    )
    name = models.CharField(max_length=MAX_DOMAIN_LENGTH)
    key = models.CharField(max_length=MAX_DOMAIN_KEY_LENGTH, editable=False)
    # The name's distinct index terms, and the longest of them: a message names the domain when
    # it holds every one, so the anchor alone finds the few candidates worth checking.
    terms = models.CharField(max_length=500, blank=True, default="", editable=False)
    anchor = models.CharField(max_length=64, blank=True, default="", editable=False)
    successes = models.PositiveIntegerField(default=0)
    failures = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    objects = DomainQuerySet.as_manager()

    class Meta:
        ordering = ["organisation", "key"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "key"], name="domain_unique_per_org"),
        ]
        indexes = [
            models.Index(fields=["organisation", "anchor"], name="domain_org_anchor"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def samples(self) -> int:
        return self.successes + self.failures

    @property
    def reliability(self) -> Fraction:
        return reliability(self.successes, self.failures)

    @property
    def weak(self) -> bool:
        return 2 + 2 * self.successes < 3 * self.failures


class Note(models.Model):
    """A failure pattern or a strategy of a domain; ``key`` folds case and whitespace."""

    domain = models.ForeignKey(Domain, on_delete=models.CASCADE, related_name="notes")
    kind = models.CharField(max_length=16, choices=[(k, k.replace("_", " ")) for k in NOTE_KINDS])
    text = models.CharField(max_length=MAX_NOTE_LENGTH)
    # SHA-256 of the folded text: a unique index on the text itself could outgrow a btree entry.
    key = models.CharField(max_length=64, editable=False)
    count = models.PositiveIntegerField(default=1)
    first_seen_at = models.DateTimeField(default=timezone.now)
    last_seen_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-last_seen_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["domain", "kind", "key"], name="note_unique_per_kind"),
        ]
        indexes = [
            models.Index(fields=["domain", "kind", "-last_seen_at"], name="note_latest"),
        ]

    def __str__(self) -> str:
        return self.text[:80]
