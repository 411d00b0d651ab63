from __future__ import annotations

from django.db import models
from django.utils import timezone

from storage_service.accounts.models import Organisation
from storage_service.files.models import File
from storage_service.folders.models import Folder
from storage_service.ids import new_upload_id


class MultipartUploadQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> MultipartUploadQuerySet:
        return self.filter(organisation=org)

    def unfinished(self, now) -> MultipartUploadQuerySet:
        """Uploads still open: neither completed nor aborted, and not yet expired."""
        return self.filter(completed_at__isnull=True, aborted_at__isnull=True, expires_at__gt=now)


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
