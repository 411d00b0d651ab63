"""A contradiction between two memories, open until someone resolves it."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from memory_service.accounts.models import Organisation
from memory_service.ids import new_tension_id
from memory_service.memories.models import Memory

OPEN, RESOLVED = "open", "resolved"
STATUSES = (OPEN, RESOLVED)


class TensionQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> TensionQuerySet:
        return self.filter(organisation=org)


class Tension(models.Model):
    """``older`` and ``newer`` disagree; ``memoryIds`` on the wire is the pair, older first."""

    id = models.CharField(primary_key=True, max_length=32, default=new_tension_id, editable=False)
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="tensions"
    )
    older = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    newer = models.ForeignKey(Memory, on_delete=models.CASCADE, related_name="+")
    status = models.CharField(max_length=16, choices=[(s, s) for s in STATUSES], default=OPEN)
    description = models.TextField()
    resolution = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    resolved_at = models.DateTimeField(null=True, blank=True)

    objects = TensionQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["organisation", "status", "-created_at"], name="tension_status"),
        ]

    def __str__(self) -> str:
        return self.description[:80]
