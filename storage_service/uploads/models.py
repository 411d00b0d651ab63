from __future__ import annotations

from datetime import datetime

from django.db import models
from django.db.models import Q
from django.utils import timezone

from storage_service.accounts.models import Organisation
from storage_service.files.models import File
from storage_service.folders.models import Folder
from storage_service.ids import new_upload_id


class MultipartUploadQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> MultipartUploadQuerySet:
        return self.filter(organisation=org)

    def unfinished(self, now: datetime) -> MultipartUploadQuerySet:
        """Uploads still open: neither completed nor aborted, and not yet expired."""
        return self.filter(completed_at__isnull=True, aborted_at__isnull=True, expires_at__gt=now)

    def finished(self, now: datetime) -> MultipartUploadQuerySet:
        """Uploads that take no more parts: completed, aborted or expired."""
        return self.filter(
            Q(completed_at__isnull=False) | Q(aborted_at__isnull=False) | Q(expires_at__lte=now)
        )


class MultipartUpload(models.Model):
    """An S3-style multipart upload: parts arrive one by one, then ``complete`` assembles them."""

    id = models.CharField(primary_key=True, max_length=32, default=new_upload_id, editable=False)
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="multipart_uploads"
    )
    folder = models.ForeignKey(
        Folder, null=True, blank=True, on_delete=models.CASCADE, related_name="multipart_uploads"
    )
    name = models.CharField(max_length=255)
    size = models.BigIntegerField()
    content_type = models.CharField(max_length=255, blank=True)
    part_size = models.BigIntegerField()
    part_count = models.IntegerField()
    # Where the assembled bytes will live, and the object store's own upload id when there is one.
    storage_name = models.CharField(max_length=255)
    backend_upload_id = models.CharField(max_length=1024, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField()
    completed_at = models.DateTimeField(null=True, blank=True)
    aborted_at = models.DateTimeField(null=True, blank=True)
    file = models.OneToOneField(
        File, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = MultipartUploadQuerySet.as_manager()

    class Meta:
        indexes = [
            models.Index(fields=["organisation", "completed_at", "expires_at"], name="upload_open"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.id})"

    @property
    def reserved_file_id(self) -> str:
        """The id the finished file will get: ``storage_name`` is ``<org id>/<file id>``."""
        return self.storage_name.rsplit("/", 1)[-1]

    def part_size_of(self, part_number: int) -> int:
        """The exact byte count of part ``part_number``; the last part holds the rest."""
        if part_number == self.part_count:
            return self.size - self.part_size * (self.part_count - 1)
        return self.part_size

    def state_at(self, now: datetime) -> str:
        if self.completed_at is not None:
            return "completed"
        if self.aborted_at is not None:
            return "aborted"
        return "expired" if self.expires_at <= now else "open"


class UploadPart(models.Model):
    upload = models.ForeignKey(MultipartUpload, on_delete=models.CASCADE, related_name="parts")
    part_number = models.IntegerField()
    size = models.BigIntegerField()
    etag = models.CharField(max_length=128)
    # The object store's own etag of the part (S3 needs it to complete); blank on local disk.
    backend_etag = models.CharField(max_length=128, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["part_number"]
        constraints = [
            models.UniqueConstraint(fields=["upload", "part_number"], name="upload_part_unique")
        ]

    def __str__(self) -> str:
        return f"{self.upload_id} part {self.part_number}"
