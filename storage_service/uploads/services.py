"""Writes on multipart uploads: start, store a part, abort, and the expiry sweep.

Concurrency: each write that decides an upload's fate re-reads it under a row lock
(``select_for_update``; SQLite serialises write transactions instead), so of a complete racing
an abort or a second complete exactly one wins and the other answers UPLOAD_NOT_FOUND. Slow
byte work (receiving a part) happens outside the lock. Where the parts' bytes go is the blob
store's: ``parts_backend`` answers the way (``parts``) for it. Completing lives in ``completion``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import quota
from storage_service.files.blobs import BlobStore, blob_store, file_blob_name
from storage_service.files.blobs.local import LocalBlobStore
from storage_service.files.blobs.s3 import S3BlobStore
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id
from storage_service.uploads.assembly import Readable
from storage_service.uploads.layout import part_layout
from storage_service.uploads.lookups import open_upload
from storage_service.uploads.models import MultipartUpload, UploadPart
from storage_service.uploads.object_store import StoreParts
from storage_service.uploads.on_disk import DiskParts
from storage_service.uploads.parts import PartsBackend, wrong_size


def parts_backend() -> PartsBackend:
    """The way the blob store keeps an upload's parts."""
    return _parts_in(blob_store())


@functools.singledispatch
def _parts_in(store: BlobStore) -> PartsBackend:
    raise TypeError(f"Multipart uploads cannot be kept in a {type(store).__name__}.")


@_parts_in.register
def _parts_on_disk(store: LocalBlobStore) -> PartsBackend:
    return DiskParts(store)


@_parts_in.register
def _parts_in_object_store(store: S3BlobStore) -> PartsBackend:
    return StoreParts(store)


def upload_ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "MULTIPART_UPLOAD_TTL", 24 * 3600))


def upload_start(
    *,
    org: Organisation,
    name: str,
    size: int,
    content_type: str | None,
    folder_id: str | None,
    part_size: int | None,
    now: datetime,
) -> MultipartUpload:
    """Open a multipart upload after checking the folder, the plan's largest file and the room.

    The file's id is chosen now (it names the final blob) and given to the file at completion.
    """
    with transaction.atomic():
        # The folder row stays locked until the upload exists, so a folder deletion either
        # sees the upload (FOLDER_IN_USE) or finishes first (FOLDER_NOT_FOUND here).
        folder = Folder.objects.for_org(org).select_for_update().get_live_or_root(folder_id)
        quota.check_upload_size(org=org, size=size)
        layout = part_layout(size=size, part_size=part_size)
        quota.check_room(org=org, size=size)
        upload = MultipartUpload.objects.create(
            organisation=org,
            folder=folder,
            name=name,
            size=size,
            content_type=content_type or "",
            part_size=layout.part_size,
            part_count=layout.part_count,
            storage_name=file_blob_name(org.pk, new_file_id()),
            created_at=now,
            expires_at=now + upload_ttl(),
        )
        parts_backend().start(upload)
        return upload


def upload_part_store(
    *,
    org: Organisation,
    upload_id: str,
    part_number: int,
    body: Readable,
    declared_size: int | None,
    now: datetime,
) -> UploadPart:
    """Store one part streamed from ``body``; a part sent again replaces the earlier one.

    A part whose size is not exactly its share of the file is refused, up front by its declared
    length or after counting, and nothing of it is kept.
    """
    upload = open_upload(org=org, upload_id=upload_id, now=now)
    if not 1 <= part_number <= upload.part_count:
        raise errors.InvalidParameters(partNumber=f"Must be 1 to {upload.part_count}.")
    expected = upload.part_size_of(part_number)
    if declared_size != expected:
        raise wrong_size(part_number, expected, declared_size)
    return parts_backend().part_store(
        org=org, upload=upload, part_number=part_number, body=body, expected=expected, now=now
    )


def upload_abort(*, org: Organisation, upload_id: str, now: datetime) -> MultipartUpload:
    """Abort an open upload; its parts are deleted once that has committed."""
    with transaction.atomic():
        upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
        upload.aborted_at = now
        upload.save(update_fields=["aborted_at"])
        transaction.on_commit(partial(parts_discard, upload.pk), robust=True)
    return upload


@dataclass(frozen=True)
class Sweep:
    uploads: int
    parts: int
    bytes: int


def uploads_expire(*, now: datetime) -> Sweep:
    """Delete the stored parts of every upload past its expiry, and any a finished one left.

    The upload rows stay (their state reads "expired"); the ids answer UPLOAD_NOT_FOUND.
    """
    finished = MultipartUpload.objects.finished(now)
    with_parts = UploadPart.objects.filter(upload__in=finished).order_by()  # plain DISTINCT
    upload_ids = list(with_parts.values_list("upload", flat=True).distinct())
    parts = size = 0
    for upload_id in upload_ids:
        removed = parts_discard(upload_id)
        parts += removed["count"]
        size += removed["size"] or 0
    return Sweep(uploads=len(upload_ids), parts=parts, bytes=size)


def parts_discard(upload_id: str) -> dict[str, Any]:
    """Delete an upload's parts: bytes first, so a crash between leaves rows to retry with."""
    return parts_backend().discard(upload_id)
