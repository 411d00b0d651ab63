from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from shared.key_cache import ChangeTellingQuerySet
from storage_service.accounts.key_cache import KEYS
from storage_service.ids import new_key_id, new_org_id


class TellsKeyChanges(ChangeTellingQuerySet):
    service_keys = KEYS


class Organisation(models.Model):
    class Plan(models.TextChoices):
        FREE = "free"
        CREATOR = "creator"
        STUDIO = "studio"
        PRODUCTION = "production"

    class FolderDeletion(models.TextChoices):
        TRASH = "trash"
        PERMANENT = "permanent"

    id = models.CharField(primary_key=True, max_length=32, default=new_org_id, editable=False)
    name = models.CharField(max_length=100, unique=True)
    plan = models.CharField(max_length=16, choices=Plan.choices, default=Plan.FREE)
    folder_deletion = models.CharField(
        max_length=16, choices=FolderDeletion.choices, default=FolderDeletion.TRASH
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # Live (not trashed) bytes and files, kept with F() updates so quota checks need no SUM.
    storage_used = models.BigIntegerField(default=0, editable=False)
    file_count = models.BigIntegerField(default=0, editable=False)

    objects = TellsKeyChanges.as_manager()

    # DRF sees the organisation as ``request.user``.
    is_authenticated = True

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def plan_limits(self) -> dict:
        return settings.PLANS[self.plan]


class ApiKeyQuerySet(TellsKeyChanges):
    def for_org(self, org: Organisation) -> ApiKeyQuerySet:
        return self.filter(organisation=org)

    def active(self, now: datetime) -> ApiKeyQuerySet:
        return self.filter(
            Q(expires_at__isnull=True) | Q(expires_at__gt=now), revoked_at__isnull=True
        )


class ApiKey(models.Model):
    """An API key: only the display prefix and a keyed hash of the secret are stored."""

    id = models.CharField(primary_key=True, max_length=32, default=new_key_id, editable=False)
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="keys")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=7, editable=False)
    secret_hash = models.CharField(max_length=64, unique=True, editable=False)
    permissions = models.JSONField(default=list)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ApiKeyQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "id"]
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    def is_active_at(self, now: datetime) -> bool:
        return self.revoked_at is None and (self.expires_at is None or self.expires_at > now)

    @property
    def is_active(self) -> bool:
        return self.is_active_at(timezone.now())


class RateLimitCounter(models.Model):
    """Requests per bucket per window when no Redis is configured (see ``shared.rate_limits``)."""

    bucket = models.CharField(max_length=200)
    window_start = models.BigIntegerField(db_index=True)
    hits = models.BigIntegerField(default=0)

    class Meta:
        db_table = "rate_limit_counter"
        constraints = [
            models.UniqueConstraint(
                fields=["bucket", "window_start"], name="rate_limit_bucket_window"
            )
        ]

    def __str__(self) -> str:
        return f"{self.bucket} @ {self.window_start}: {self.hits}"
