"""Completing a multipart upload: check the parts list, describe the bytes, record the file.

On the local filesystem the parts already sit in the upload's data file, so completing hashes
it and moves it into place; on an object store the store joins the parts itself.
"""

from __future__ import annotations

import hashlib
import io
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from functools import partial
from itertools import pairwise
from typing import Any

from django.db import transaction

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import blobs, quota
from storage_service.files.models import Category, File
from storage_service.files.services import file_register
from storage_service.files.sniffing import category_of, content_type_of, image_metadata
from storage_service.folders.models import Folder
from storage_service.uploads import assembly, object_store
from storage_service.uploads.lookups import open_upload, stored_etags
from storage_service.uploads.models import MultipartUpload, UploadPart
from storage_service.uploads.services import parts_discard

# Enough of an object's start to sniff it and read an image header without fetching it all.
IMAGE_HEAD_SIZE = 64 * 1024
# What the content shows when it shows nothing in particular: a declared type beats these.
GENERIC_TYPES = {"application/octet-stream", "text/plain"}


def upload_complete(
    *, org: Organisation, upload_id: str, parts: Sequence[tuple[int, str]], now: datetime
) -> File:
    """Join the listed parts into the file and record it, counting it against the quota.

    ``parts`` is ``(partNumber, etag)`` for every part, ascending. When the quota is full the
    upload stays open with its parts, so the caller can free space and complete again.
    """
    upload = open_upload(org=org, upload_id=upload_id, now=now)
    try:
        _check_listing(upload, parts, stored_etags(upload))
    except errors.InvalidParameters:
        _not_found_if_finished(org=org, upload_id=upload_id, now=now)
        raise
    Folder.objects.for_org(org).get_live_or_root(upload.folder_id)
    quota.check_room(org=org, size=upload.size)  # early: joining a large file takes a while
    if not blobs.is_local():
        return _complete_in_store(org=org, upload_id=upload_id, parts=parts, now=now)
    try:
        assembled = assembly.assemble(upload.pk)
    except FileNotFoundError:
        _not_found_if_finished(org=org, upload_id=upload_id, now=now)
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


def _not_found_if_finished(*, org: Organisation, upload_id: str, now: datetime) -> None:
    """Wait out a racing complete (its locks, in its order); UPLOAD_NOT_FOUND if it finished."""
    # A parts check that fails may have read the winner's half-done clean-up: what decides is
    # whether the upload is still open once the winner has committed.
    with transaction.atomic():
        Organisation.objects.select_for_update().filter(pk=org.pk).first()
        open_upload(org=org, upload_id=upload_id, now=now, lock=True)


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
            upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
            # The listed etags must still be the stored ones: a part replaced while the parts
            # were being joined has a new stored etag (parts swap in by rename, under this lock).
            _check_listing(upload, parts, stored_etags(upload))
            if assembled.size != upload.size:
                raise errors.InvalidParameters(
                    parts="A part was replaced while the upload was completing; "
                    "list the parts with their current etags and complete again."
                )
            file = file_register(
                org=org,
                folder=Folder.objects.for_org(org)
                .select_for_update()
                .get_live_or_root(upload.folder_id),
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
        upload = open_upload(org=org, upload_id=upload_id, now=now, lock=True)
        _check_listing(upload, parts, stored_etags(upload))
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
            folder=Folder.objects.for_org(org).get_live_or_root(upload.folder_id),
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
