"""Reads that multipart writes share: the caller's open upload and its stored etags."""

from __future__ import annotations

from datetime import datetime

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.uploads.models import MultipartUpload, UploadPart


def open_upload(
    *, org: Organisation, upload_id: str, now: datetime, lock: bool = False
) -> MultipartUpload:
    """The caller's open upload ``upload_id``; a foreign or finished one is UPLOAD_NOT_FOUND."""
    uploads = MultipartUpload.objects.for_org(org).unfinished(now)
    if lock:
        uploads = uploads.select_for_update()
    upload = uploads.filter(pk=upload_id).first()
    if upload is None:
        raise errors.UploadNotFound(uploadId=upload_id[:64])
    return upload


def stored_etags(upload: MultipartUpload) -> dict[int, str]:
    return dict(UploadPart.objects.filter(upload=upload).values_list("part_number", "etag"))
