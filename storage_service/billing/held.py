"""Bytes an organisation holds outside its live storage: the trash and unfinished uploads."""

from __future__ import annotations

from django.db.models import Sum

from storage_service.accounts.models import Organisation
from storage_service.files.models import File
from storage_service.uploads.models import UploadPart


def trash_bytes(org: Organisation) -> int:
    """Bytes of files in the trash: restorable, and not counted as storage until restored."""
    trashed = File.objects.for_org(org).filter(deleted_at__isnull=False)
    return trashed.aggregate(size=Sum("size"))["size"] or 0


def pending_upload_bytes(org: Organisation) -> int:
    """Bytes of parts received for multipart uploads that have not completed."""
    parts = UploadPart.objects.filter(upload__organisation=org, upload__completed_at__isnull=True)
    return parts.aggregate(size=Sum("size"))["size"] or 0
