"""Writes on multipart uploads: start, store a part, complete, abort, and the expiry sweep.

Concurrency: each write that decides an upload's fate re-reads it under a row lock
(``select_for_update``; SQLite serialises write transactions instead), so of a complete racing
an abort or a second complete exactly one wins and the other answers UPLOAD_NOT_FOUND. Slow
byte work (receiving a part, joining the parts) happens before the lock, on staged files, and
only the winner moves its staged file into place.
"""

from __future__ import annotations

import hashlib
import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from itertools import pairwise
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Sum

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import blobs, quota
from storage_service.files.models import Category, File
from storage_service.files.services import file_register
from storage_service.files.sniffing import category_of, content_type_of, image_metadata
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id
from storage_service.uploads import assembly, object_store
from storage_service.uploads.layout import part_layout
from storage_service.uploads.models import MultipartUpload, UploadPart

# Enough of an object's start to sniff it and read an image header without fetching it all.
IMAGE_HEAD_SIZE = 64 * 1024
# What the content shows when it shows nothing in particular: a declared type beats these.
GENERIC_TYPES = {"application/octet-stream", "text/plain"}


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
        folder = _live_folder(org=org, folder_id=folder_id, lock=True)
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
    upload = _open_upload(org=org, upload_id=upload_id, now=now)
    if not 1 <= part_number <= upload.part_count:
        raise errors.InvalidParameters(partNumber=f"Must be 1 to {upload.part_count}.")
    expected = upload.part_size_of(part_number)
    if declared_size != expected:
        raise _wrong_size(part_number, expected, declared_size)
    staged = assembly.stage_part(body, expected_size=expected)
    placing = False
    try:
        if staged.size != expected:
            raise _wrong_size(part_number, expected, staged.size)
        with transaction.atomic():
            upload = _open_upload(org=org, upload_id=upload_id, now=now, lock=True)
            if blobs.is_local():
                placing = True
                offset = (part_number - 1) * upload.part_size
                assembly.part_place(staged, upload_id=upload.pk, offset=offset)
                backend_etag = ""
            else:
                backend_etag = object_store.store_part_put(upload, part_number, staged)
            part, _ = UploadPart.objects.update_or_create(
                upload=upload,
                part_number=part_number,
                defaults={
                    "size": staged.size,
                    "etag": staged.md5,
                    "backend_etag": backend_etag,
                    "created_at": now,
                },
            )
    except BaseException:
        if placing:
            # The part's region may be half overwritten: forget the part, so that completion
            # asks for it again instead of trusting the etag of what was there before.
            UploadPart.objects.filter(upload_id=upload_id, part_number=part_number).delete()
        raise
    finally:
        assembly.discard(staged.path)
    return part


def upload_complete(
    *, org: Organisation, upload_id: str, parts: Sequence[tuple[int, str]], now: datetime
) -> File:
    """Join the listed parts into the file and record it, counting it against the quota.

    ``parts`` is ``(partNumber, etag)`` for every part, ascending. When the quota is full the
    upload stays open with its parts, so the caller can free space and complete again.
    """
    upload = _open_upload(org=org, upload_id=upload_id, now=now)
    _check_listing(upload, parts, _stored_etags(upload))
    _live_folder(org=org, folder_id=upload.folder_id)
    quota.check_room(org=org, size=upload.size)  # early: joining a large file takes a while
    if not blobs.is_local():
        return _complete_in_store(org=org, upload_id=upload_id, parts=parts, now=now)
    try:
        assembled = assembly.assemble(upload.pk)
    except FileNotFoundError:
        _open_upload(org=org, upload_id=upload_id, now=now)  # finished meanwhile: not found
        raise errors.InvalidParameters(
            parts="The bytes of a part are missing; upload it again."
        ) from None
    # On failure the data file stays, so that the client can complete again.
    content_type, metadata = _describe(assembled, upload)
    return _claim(
        org=org,
        upload_id=upload_id,
        parts=parts,
        assembled=assembled,
        content_type=content_type,
        metadata=metadata,
        now=now,
    )


def upload_abort(*, org: Organisation, upload_id: str, now: datetime) -> MultipartUpload:
    """Abort an open upload; its parts are deleted once that has committed."""
    with transaction.atomic():
        upload = _open_upload(org=org, upload_id=upload_id, now=now, lock=True)
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


def _open_upload(
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


def _live_folder(*, org: Organisation, folder_id: str | None, lock: bool = False) -> Folder | None:
    """The caller's live folder ``folder_id`` (None for the root), else FOLDER_NOT_FOUND."""
    if folder_id is None:
        return None
    folders = Folder.objects.for_org(org).live()
    if lock:
        folders = folders.select_for_update()
    folder = folders.filter(pk=folder_id).first()
    if folder is None:
        raise errors.FolderNotFound(folderId=folder_id)
    return folder


def _stored_etags(upload: MultipartUpload) -> dict[int, str]:
    return dict(UploadPart.objects.filter(upload=upload).values_list("part_number", "etag"))


def _wrong_size(part_number: int, expected: int, got: int | None) -> errors.InvalidParameters:
    received = "no Content-Length" if got is None else f"{got} bytes"
    return errors.InvalidParameters(
        f"Part {part_number} must be exactly {expected} bytes.",
        size=f"Expected {expected} bytes, got {received}.",
        expectedSize=expected,
        receivedSize=got,
    )


def _check_listing(
    upload: MultipartUpload, listed: Sequence[tuple[int, str]], stored: dict[int, str]
) -> None:
    """Refuse a parts list that is not exactly 1..partCount, ascending, with the stored etags."""
    count = upload.part_count
    numbers = [number for number, _ in listed]
    outside = [n for n in numbers if not 1 <= n <= count]
    repeated = sorted(n for n, times in Counter(numbers).items() if times > 1)
    misordered = [b for a, b in pairwise(numbers) if b < a]
    missing = sorted(set(range(1, count + 1)) - set(numbers))
    not_uploaded = [n for n in numbers if n not in stored]
    mismatched = [n for n, etag in listed if n in stored and etag != stored[n]]
    for offending, reason in [
        (outside, f"Part numbers run from 1 to {count}; these do not:"),
        (repeated, "Each part must be listed once; listed more than once:"),
        (misordered, "Parts must be listed in ascending order; out of order:"),
        (missing, "Every part must be listed; missing:"),
        (not_uploaded, "These parts have not been uploaded:"),
        (mismatched, "The etag does not match the uploaded part for:"),
    ]:
        if offending:
            shown = ", ".join(str(n) for n in offending[:20])
            more = f" and {len(offending) - 20} more" if len(offending) > 20 else ""
            problem = f"{reason} {shown}{more}."
            raise errors.InvalidParameters(problem, parts=problem, partNumbers=offending[:20])


def _describe(assembled: assembly.Assembled, upload: MultipartUpload) -> tuple[str, dict]:
    """The type the content shows, else the declared one, else the name's; image dimensions."""
    content_type = content_type_of(assembled.head, "")
    if content_type in GENERIC_TYPES:
        content_type = upload.content_type or content_type_of(assembled.head, upload.name)
    metadata: dict[str, Any] = {}
    if category_of(content_type) == Category.IMAGE:
        with open(assembled.path, "rb") as stream:
            metadata.update(image_metadata(stream))
    return content_type, metadata


def _claim(
    *,
    org: Organisation,
    upload_id: str,
    parts: Sequence[tuple[int, str]],
    assembled: assembly.Assembled,
    content_type: str,
    metadata: dict[str, Any],
    now: datetime,
) -> File:
    """Under the upload's lock: check again, register the file, move the bytes into place."""
    published = ""
    try:
        with transaction.atomic():
            # The organisation row first, like every other writer, so no two deadlock.
            Organisation.objects.select_for_update().filter(pk=org.pk).first()
            upload = _open_upload(org=org, upload_id=upload_id, now=now, lock=True)
            # The listed etags must still be the stored ones: a part replaced while the parts
            # were being joined has a new stored etag (parts swap in by rename, under this lock).
            _check_listing(upload, parts, _stored_etags(upload))
            if assembled.size != upload.size:
                raise errors.InvalidParameters(
                    parts="A part was replaced while the upload was completing; "
                    "list the parts with their current etags and complete again."
                )
            file = file_register(
                org=org,
                folder=_live_folder(org=org, folder_id=upload.folder_id, lock=True),
                name=upload.name,
                size=upload.size,
                content_type=content_type,
                storage_name=upload.storage_name,
                sha256=assembled.sha256,
                metadata=metadata,
                now=now,
                file_id=upload.reserved_file_id,
            )
            assembly.publish(assembled, name=upload.storage_name)
            published = upload.storage_name
            upload.file, upload.completed_at = file, now
            upload.save(update_fields=["file", "completed_at"])
            transaction.on_commit(partial(parts_discard, upload.pk), robust=True)
    except BaseException:
        if published:  # the row never committed, so neither may the bytes stay
            blobs.blob_delete(published)
        raise
    return file


def _complete_in_store(
    *, org: Organisation, upload_id: str, parts: Sequence[tuple[int, str]], now: datetime
) -> File:
    """Complete on an object store: the store joins the parts, then the file is described.

    The store's completion cannot be undone, so the upload is finished from then on: if the file
    then no longer fits the quota, its object is deleted and the client starts again.
    """
    with transaction.atomic():
        upload = _open_upload(org=org, upload_id=upload_id, now=now, lock=True)
        _check_listing(upload, parts, _stored_etags(upload))
        backend_etags = dict(
            UploadPart.objects.filter(upload=upload).values_list("part_number", "backend_etag")
        )
        object_store.store_upload_complete(upload, backend_etags)
        upload.completed_at = now
        upload.save(update_fields=["completed_at"])
    name = upload.storage_name
    try:
        head = blobs.blob_head(name, IMAGE_HEAD_SIZE)
        content_type = content_type_of(head, "")
        if content_type in GENERIC_TYPES:
            content_type = upload.content_type or content_type_of(head, upload.name)
        metadata: dict[str, Any] = {}
        if category_of(content_type) == Category.IMAGE:
            metadata.update(image_metadata(io.BytesIO(head)))
        digest = hashlib.sha256()
        for chunk in blobs.blob_chunks(name):
            digest.update(chunk)
        file = file_register(
            org=org,
            folder=_live_folder(org=org, folder_id=upload.folder_id),
            name=upload.name,
            size=upload.size,
            content_type=content_type,
            storage_name=name,
            sha256=digest.hexdigest(),
            metadata=metadata,
            now=now,
            file_id=upload.reserved_file_id,
        )
    except BaseException:
        blobs.blob_delete(name)
        raise
    upload.file = file
    upload.save(update_fields=["file"])
    UploadPart.objects.filter(upload=upload).delete()
    return file
