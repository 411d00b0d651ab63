"""Writes on multipart uploads: start, store a part, abort, and the expiry sweep.

Concurrency: each write that decides an upload's fate re-reads it under a row lock
(``select_for_update``; SQLite serialises write transactions instead), so of a complete racing
an abort or a second complete exactly one wins and the other answers UPLOAD_NOT_FOUND. Slow
byte work (receiving a part) happens before the lock, on a staged file. Completing lives in
``completion``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Sum

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import blobs, quota
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id
from storage_service.uploads import assembly, object_store
from storage_service.uploads.layout import part_layout
from storage_service.uploads.lookups import open_upload
from storage_service.uploads.models import MultipartUpload, UploadPart


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
            storage_name=blobs.file_blob_name(org.pk, new_file_id()),
            created_at=now,
            expires_at=now + upload_ttl(),
        )
        if not blobs.is_local():
            upload.backend_upload_id = object_store.store_upload_start(upload)
            upload.save(update_fields=["backend_upload_id"])
        return upload


def upload_part_store(
    *,
    org: Organisation,
    upload_id: str,
    part_number: int,
    body: assembly.Readable,
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
        raise _wrong_size(part_number, expected, declared_size)
    if blobs.is_local():
        return _part_store_in_place(org, upload, part_number, body, expected, now)
    staged = assembly.stage_part(body, expected_size=expected)
    try:
        if staged.size != expected:
            raise _wrong_size(part_number, expected, staged.size)
        with transaction.atomic():
            upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
            backend_etag = object_store.store_part_put(upload, part_number, staged)
            return _part_record(upload, part_number, staged, backend_etag, now)
    finally:
        assembly.discard(staged.path)


def _part_store_in_place(
    org: Organisation,
    upload: MultipartUpload,
    part_number: int,
    body: assembly.Readable,
    expected: int,
    now: datetime,
) -> UploadPart:
    """Write the part into the upload's data file, its old record gone while its bytes change.

    The record is deleted under the upload's lock before the first byte is written, so a
    complete that has not claimed the upload yet finds the part missing (or, later, its new
    etag), and one that has finished makes this UPLOAD_NOT_FOUND before anything is written.
    """
    upload_id = upload.pk
    with assembly.part_slot(upload_id, part_number):
        with transaction.atomic():
            upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
            UploadPart.objects.filter(upload=upload, part_number=part_number).delete()
        offset = (part_number - 1) * upload.part_size
        written = assembly.part_write(
            body, upload_id=upload_id, offset=offset, expected_size=expected
        )
        if written.size != expected:
            raise _wrong_size(part_number, expected, written.size)
        try:
            with transaction.atomic():
                upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
                return _part_record(upload, part_number, written, "", now)
        except errors.UploadNotFound:
            # Aborted or expired while the part was arriving: its sweep may have run already,
            # and writing recreated the data file, so nothing else would remove it.
            assembly.parts_delete(upload_id)
            raise


def _part_record(
    upload: MultipartUpload,
    part_number: int,
    received: assembly.StagedPart,
    backend_etag: str,
    now: datetime,
) -> UploadPart:
    part, _ = UploadPart.objects.update_or_create(
        upload=upload,
        part_number=part_number,
        defaults={
            "size": received.size,
            "etag": received.etag,
            "backend_etag": backend_etag,
            "created_at": now,
        },
    )
    return part


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
    rows = UploadPart.objects.filter(upload_id=upload_id)
    removed = rows.aggregate(count=Count("pk"), size=Sum("size"))
    if blobs.is_local():
        assembly.parts_delete(upload_id)
    else:
        object_store.store_upload_abort(MultipartUpload.objects.get(pk=upload_id))
    rows.delete()
    return removed


def _wrong_size(part_number: int, expected: int, got: int | None) -> errors.InvalidParameters:
    received = "no Content-Length" if got is None else f"{got} bytes"
    return errors.InvalidParameters(
        f"Part {part_number} must be exactly {expected} bytes.",
        size=f"Expected {expected} bytes, got {received}.",
        expectedSize=expected,
        receivedSize=got,
    )
