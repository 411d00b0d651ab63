"""A memory, and the transcript of the turns it was learned from."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from memory_service.accounts.models import Organisation
from memory_service.extraction.candidates import KINDS
from memory_service.ids import new_memory_id, new_turn_id
from memory_service.recall.index import Entry

CORE, WORKING, ARCHIVE = "core", "working", "archive"
TIERS = (CORE, WORKING, ARCHIVE)
TURN, DIRECT, TENSION = "turn", "direct", "tension"
SOURCES = (TURN, DIRECT, TENSION)

MAX_CONTENT_LENGTH = 2000
MAX_NAME_LENGTH = 100  # subject, domain
MAX_SESSION_ID_LENGTH = 200


class MemoryQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> MemoryQuerySet:
        return self.filter(organisation=org)

    def newest_first(self) -> MemoryQuerySet:
        return self.order_by("-created_at", "-id")


class Memory(models.Model):
    """One durable statement; ``fingerprint`` makes a restatement land on the same row."""

    id = models.CharField(primary_key=True, max_length=32, default=new_memory_id, editable=False)
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memories"
    )
    content = models.TextField(max_length=MAX_CONTENT_LENGTH)
    # SHA-256 of the normalised content: a unique index on it decides "the same memory" even when
    # concurrent requests race, and it stays small whatever the content's length.
    fingerprint = models.CharField(max_length=64, editable=False)
    kind = models.CharField(max_length=16, choices=[(k, k) for k in KINDS], default="fact")
    tier = models.CharField(max_length=16, choices=[(t, t) for t in TIERS], default=WORKING)
    subject = models.CharField(max_length=MAX_NAME_LENGTH, blank=True, default="")
    domain = models.CharField(max_length=MAX_NAME_LENGTH, blank=True, default="")
    source = models.CharField(max_length=16, choices=[(s, s) for s in SOURCES], default=DIRECT)
    session_id = models.CharField(max_length=MAX_SESSION_ID_LENGTH, blank=True, default="")
    times_seen = models.PositiveIntegerField(default=1)
    # Separate turns that stated it: the third promotes a working memory to core.
    turns_seen = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)

    objects = MemoryQuerySet.as_manager()

    class Meta:
        verbose_name_plural = "memories"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "fingerprint"], name="memory_unique_per_org"
            ),
        ]
        indexes = [
            models.Index(fields=["organisation", "-created_at", "-id"], name="memory_org_newest"),
            # Tier filters, and the context block's newest core and working memories first.
            models.Index(
                fields=["organisation", "tier", "-updated_at", "-id"], name="memory_org_tier_recent"
            ),
            # The newest held on a subject, outside the archive: what a statement is compared with.
            models.Index(
                fields=["organisation", "subject", "-updated_at", "-id"],
                condition=~models.Q(tier=ARCHIVE),
                name="memory_org_subject_recent",
            ),
        ]

    def __str__(self) -> str:
        return self.content[:80]

    def recall_entry(self) -> Entry:
        """Return what recall files this memory under: its content, subject and domain."""
        return Entry(self.organisation_id, self.id, f"{self.content} {self.subject} {self.domain}")


class TierTally(models.Model):
    """How many of an organisation's memories are in ``tier``.

    Database triggers keep it (migration 0002), so every write keeps it exact, bulk updates from
    the admin's actions included, and listing reads a few rows instead of counting them all.
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, db_index=False)
    tier = models.CharField(max_length=16)
    count = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["organisation", "tier"], name="tiertally_org_tier"),
        ]

    def __str__(self) -> str:
        return f"{self.organisation_id} {self.tier}: {self.count}"


class TurnQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> TurnQuerySet:
        return self.filter(organisation=org)


class Turn(models.Model):
    """A finished conversation turn, kept as its session's transcript with secrets redacted."""

    id = models.CharField(primary_key=True, max_length=32, default=new_turn_id, editable=False)
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="turns")
    session_id = models.CharField(max_length=MAX_SESSION_ID_LENGTH, blank=True, default="")
    user_message = models.TextField()
    assistant_response = models.TextField(blank=True)
    lookup = models.BooleanField(default=False)
    counts = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    objects = TurnQuerySet.as_manager()

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["organisation", "session_id", "created_at"], name="turn_session"),
        ]

    def __str__(self) -> str:
        return self.user_message[:80]
