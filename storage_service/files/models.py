from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone

from storage_service.accounts.models import Organisation
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id

MAX_NAME_LENGTH = 255
LIVE = Q(deleted_at__isnull=True)


class Category(models.TextChoices):
    """The coarse types GET /files filters by and billing breaks usage down by."""

    IMAGE = "image"
    DOCUMENT = "document"
    VIDEO = "video"
    AUDIO = "audio"
    OTHER = "other"


class FileQuerySet(models.QuerySet):
    def for_org(self, org: Organisation) -> FileQuerySet:
        return self.filter(organisation=org)

    def live(self) -> FileQuerySet:
        return self.filter(deleted_at__isnull=True)

    def in_folder(self, folder: Folder | None) -> FileQuerySet:
        return self.filter(folder=folder)

    def in_subtree_of(self, folder: Folder) -> FileQuerySet:
        return self.filter(
            organisation_id=folder.organisation_id, folder__path__startswith=folder.path
        )


class File(models.Model):
    """A stored file. Its bytes live in the default storage under ``storage_name``.

    ``storage_name`` is made from ids only (``<org id>/<file id>``), never from the user's file
    name, so no name can reach outside the storage root.
    """

    id = models.CharField(primary_key=True, max_length=32, default=new_file_id, editable=False)
    organisation = models.ForeignKey(Organisation, on_delete=models.CASCADE, related_name="files")
    folder = models.ForeignKey(
        Folder, null=True, blank=True, on_delete=models.PROTECT, related_name="files"
    )
    name = models.CharField(max_length=MAX_NAME_LENGTH)
    size = models.BigIntegerField()
    content_type = models.CharField(max_length=255)
    category = models.CharField(max_length=16, choices=Category.choices)
    storage_name = models.CharField(max_length=255, editable=False)
    sha256 = models.CharField(max_length=64, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    uploaded_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)
    deleted_at = models.DateTimeField(null=True, blank=True)
    trash_root = models.ForeignKey(
        Folder, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    objects = FileQuerySet.as_manager()

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        # Partial indexes on live files: each serves one filter with the default newest-first
        # order (or one sort order) as a plain index scan, whatever the organisation's size.
        indexes = [
            models.Index(
                fields=["organisation", "-uploaded_at", "-id"],
                condition=LIVE,
                name="file_live_uploaded",
            ),
            models.Index(
                fields=["organisation", "folder", "-uploaded_at", "-id"],
                condition=LIVE,
                name="file_live_folder_uploaded",
            ),
            models.Index(
                fields=["organisation", "category", "-uploaded_at", "-id"],
                condition=LIVE,
                name="file_live_category_uploaded",
            ),
            models.Index(
                fields=["organisation", "content_type", "-uploaded_at", "-id"],
                condition=LIVE,
                name="file_live_mime_uploaded",
            ),
            models.Index(
                fields=["organisation", "name", "id"], condition=LIVE, name="file_live_name"
            ),
            models.Index(
                fields=["organisation", "size", "id"], condition=LIVE, name="file_live_size"
            ),
            models.Index(
                fields=["organisation", "updated_at", "id"],
                condition=LIVE,
                name="file_live_updated",
            ),
            models.Index(fields=["deleted_at"], name="file_deleted_at"),
        ]

    def __str__(self) -> str:
        return self.name


class FileTally(models.Model):
    """Live files per organisation, category and MIME type, kept by database triggers.

    A type-filtered list reads its ``total`` here instead of counting hundreds of thousands of
    rows. Triggers (migration 0004) see every write, bulk UPDATEs of a folder deletion included.
    """

    organisation = models.ForeignKey(Organisation, on_delete=models.DO_NOTHING, db_constraint=False)
    category = models.CharField(max_length=16)
    content_type = models.CharField(max_length=255)
    live_count = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["organisation", "category", "content_type"], name="file_tally_key"
            )
        ]

    def __str__(self) -> str:
        return f"{self.organisation_id} {self.content_type}: {self.live_count}"
