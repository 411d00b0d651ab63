"""A contradiction between two memories, open until someone resolves it."""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from memory_service.accounts.models import Organisation
from memory_service.ids import new_tension_id
from memory_service.memories.models import Memory

OPEN, RESOLVED = "open", "resolved"
STATUSES = (OPEN, RESOLVED)
# What ``keep`` says when neither memory loses.
BOTH = "both"
MAX_DESCRIPTION_LENGTH = 2000
MAX_NOTE_LENGTH = 2000


class TensionQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> TensionQuerySet:
        return self.filter(organisation=org)

    def newest_first(self) -> TensionQuerySet:
        return self.order_by("-created_at", "-id")

    def with_memories(self) -> TensionQuerySet:
        """Load both memories in the same query: every record shows them."""
        return self.select_related("older", "newer")

    def open(self) -> TensionQuerySet:
        return self.filter(status=OPEN)

    def between(self, first: str, second: str) -> TensionQuerySet:
        """Tensions on the pair of memories ``first`` and ``second``, in either order."""
        return self.filter(Q(older=first, newer=second) | Q(older=second, newer=first))


class Tension(models.Model):
    """``older`` and ``newer`` disagree; ``memoryIds`` on the wire is the pair, older first.

    Deleting either memory deletes the tension: a contradiction with a forgotten memory is moot.
    A resolution keeps ``kept`` (a memory id or ``both``), the caller's ``note``, the memory its
    lesson was stored as, and in ``resolution`` that lesson's text, which outlives that memory.
    """

    id = models.CharField(primary_key=True, max_length=32, default=new_tension_id, editable=False)
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="tensions"
    )
    older = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    newer = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=[(s, s) for s in STATUSES], default=OPEN)
    description = models.TextField()
    resolution = models.TextField(blank=True, default="")
    kept = models.CharField(max_length=32, blank=True, default="")
    note = models.TextField(blank=True, default="")
    lesson = models.ForeignKey(
        Memory, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = TensionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["organisation", "status", "-created_at"], name="tension_status"),
            models.Index(fields=["organisation", "-created_at", "-id"], name="tension_org_newest"),
        ]

    def __str__(self) -> str:
        return self.description[:80]
