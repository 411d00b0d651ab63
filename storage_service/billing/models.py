"""Usage rollups: never a row per request, so a year's report costs the same at any volume."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from storage_service.accounts.models import Organisation


class RequestRollup(models.Model):
    """Requests and bytes moved for one organisation in one UTC hour under one endpoint label."""

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="+")
    hour = models.BigIntegerField(help_text="Unix seconds at the start of the UTC hour.")
    endpoint = models.CharField(max_length=200)
    requests = models.BigIntegerField(default=0)
    upload_bytes = models.BigIntegerField(default=0)
    download_bytes = models.BigIntegerField(default=0)

    class Meta:
        db_table = "billing_request_rollup"
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "hour", "endpoint"], name="request_rollup_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.organisation_id} {self.hour} {self.endpoint}: {self.requests}"


class StorageChange(models.Model):
    """The net change of live bytes and files of one organisation in one UTC hour, by file type.

    Levels are sums of changes, so the quota's counters and this series move in one transaction.
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="+")
    hour = models.BigIntegerField(help_text="Unix seconds at the start of the UTC hour.")
    category = models.CharField(max_length=16)
    bytes = models.BigIntegerField(default=0)
    files = models.BigIntegerField(default=0)

    class Meta:
        db_table = "billing_storage_change"
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "hour", "category"], name="storage_change_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.organisation_id} {self.hour} {self.category}: {self.bytes:+} bytes"


class UsageFlush(models.Model):
    """A batch of counts moved from Redis, recorded with them so no batch is applied twice."""

    token = models.CharField(primary_key=True, max_length=200)
    flushed_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        db_table = "billing_usage_flush"

    def __str__(self) -> str:
        return self.token
