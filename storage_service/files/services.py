"""Writes on files."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from pathlib import Path
from typing import IO, Any

from django.conf import settings
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction

from storage_service import errors
from storage_service.accounts.models import Organisation
from storage_service.files import quota
from storage_service.files.blobs import blob_store, file_blob_name
from storage_service.files.models import MAX_NAME_LENGTH, Category, File
from storage_service.files.sniffing import HEAD_SIZE, category_of, content_type_of, image_metadata
from storage_service.folders.models import Folder
from storage_service.ids import new_file_id
from storage_service.names import forbidden_character
from storage_service.unchanged import UNCHANGED, Unchanged

# Measured from an image's bytes at upload; a metadata update keeps them unless it sets them.
MEASURED_METADATA = ("width", "height")


def file_register(
    *,
    org: Organisation,
    folder: Folder | None,
    name: str,
    size: int,
    content_type: str,
    storage_name: str,
    sha256: str,
    metadata: dict[str, Any],
    now: datetime,
    file_id: str | None = None,
) -> File:
    """Record bytes already stored under ``storage_name`` as a file, counting them against quota.

    Raises STORAGE_QUOTA_EXCEEDED (or FOLDER_NOT_FOUND when the folder went to the trash
    meanwhile) without creating anything; the caller then deletes the bytes. Locks are taken
    organisation first, then folder, the order every writer here follows, so none deadlock.
    """
    with transaction.atomic():
        quota.quota_reserve(org=org, stored={category_of(content_type): (size, 1)})
        if folder is not None:
            Folder.objects.select_for_update(no_key=True).get_live(folder.pk)
        extra = {"pk": file_id} if file_id else {}
        return File.objects.create(
            organisation=org,
            folder=folder,
            name=name,
            size=size,
            content_type=content_type,
            category=category_of(content_type),
            storage_name=storage_name,
            sha256=sha256,
            metadata=metadata,
            uploaded_at=now,
            updated_at=now,
            **extra,
        )


def clean_file_name(raw: str | None) -> str:
    """Return the name to store, at most 255 characters, never empty; see ``names`` for the
    characters no name may hold.

    The name is only ever a label (bytes live under ids), so ``/`` and ``..`` are harmless here;
    Django's parser already reduced the name to its last path segment.
    """
    name = (raw or "").strip()
    if problem := forbidden_character(name):
        raise errors.InvalidParameters(file=problem)
    if not name or name in {".", ".."}:
        raise errors.InvalidParameters(file="The file needs a name.")
    if len(name) > MAX_NAME_LENGTH:
        raise errors.InvalidParameters(file=f"The file name is longer than {MAX_NAME_LENGTH}.")
    return name


def describe(*, name: str, stream: IO[bytes], declared_type: str | None = None) -> tuple[str, dict]:
    """Sniff the stored bytes: their MIME type and, for images, width and height."""
    stream.seek(0)
    head = stream.read(HEAD_SIZE)
    content_type = content_type_of(head, name)
    if content_type in {"application/octet-stream", "text/plain"} and declared_type:
        content_type = declared_type
    metadata: dict[str, Any] = {}
    if category_of(content_type) == Category.IMAGE:
        stream.seek(0)
        metadata.update(image_metadata(stream))
    stream.seek(0)
    return content_type, metadata


def file_upload(
    *, org: Organisation, uploaded: UploadedFile, folder_id: str | None, now: datetime
) -> File:
    """Store an uploaded file (already spilled to disk and hashed) and record it."""
    folder = Folder.objects.for_org(org).get_live_or_root(folder_id)
    name = clean_file_name(uploaded.name)
    size = uploaded.size
    assert size is not None  # the upload handler sets it when the file completes
    quota.check_upload_size(org=org, size=size)
    content_type, metadata = describe(name=name, stream=uploaded)
    file_id = new_file_id()
    storage_name = file_blob_name(org.pk, file_id)
    blob_store().save(storage_name, uploaded)
    try:
        return file_register(
            org=org,
            folder=folder,
            name=name,
            size=size,
            content_type=content_type,
            storage_name=storage_name,
            sha256=getattr(uploaded, "sha256", ""),
            metadata=metadata,
            now=now,
            file_id=file_id,
        )
    except BaseException:
        blob_store().delete(storage_name)
        raise


def file_update(
    *,
    org: Organisation,
    file_id: str,
    name: str | None = None,
    folder_id: str | Unchanged | None = UNCHANGED,
    metadata: dict[str, Any] | None = None,
    now: datetime,
) -> File:
    """Rename a live file, move it to ``folder_id`` (None: the root) or replace its metadata.

    ``metadata`` replaces what the client set before; ``width`` and ``height`` carry over unless
    it sets them. The bytes and the quota are untouched. The file's row is locked first, then
    the destination folder (as ``file_register`` locks it), so a deletion of that folder either
    waits for the move and takes the file with it, or is seen and the move is FOLDER_NOT_FOUND.
    """
    with transaction.atomic():
        file = File.objects.for_org(org).live().select_for_update().filter(pk=file_id).first()
        if file is None:
            raise errors.FileNotFound(fileId=file_id)
        if name is not None:
            file.name = name
        if folder_id is not UNCHANGED:
            file.folder = None
            if folder_id is not None:
                folders = Folder.objects.for_org(org).select_for_update(no_key=True)
                file.folder = folders.get_live(folder_id)
        if metadata is not None:
            measured = {k: v for k, v in file.metadata.items() if k in MEASURED_METADATA}
            file.metadata = {**measured, **metadata}
        file.updated_at = now
        # Not the counted columns, so the FileTally triggers stay out of it.
        file.save(update_fields=["name", "folder", "metadata", "updated_at"])
    return file


@dataclass(frozen=True)
class FileDeletion:
    file_id: str
    freed_space: int


def file_delete(*, org: Organisation, file_id: str) -> FileDeletion:
    """Delete a live file for good: its row now, its bytes once the deletion has committed."""
    with transaction.atomic():
        file = File.objects.for_org(org).live().select_for_update().filter(pk=file_id).first()
        if file is None:
            raise errors.FileNotFound(fileId=file_id)
        file.delete()
        quota.quota_release(org_id=org.pk, stored={file.category: (file.size, 1)})
        transaction.on_commit(partial(blob_store().delete, file.storage_name))
    return FileDeletion(file_id=file_id, freed_space=file.size)


def spill_sweep(*, now: datetime, older_than: timedelta) -> int:
    """Delete files a request that died mid-upload left in FILE_UPLOAD_TEMP_DIR; return how many.

    Nothing lives there longer than one request, so anything older than ``older_than`` is litter.
    """
    directory = Path(settings.FILE_UPLOAD_TEMP_DIR)
    if not directory.is_dir():
        return 0
    cutoff = (now - older_than).timestamp()
    removed = 0
    for entry in directory.iterdir():
        with contextlib.suppress(FileNotFoundError):  # a request may finish with it meanwhile
            if entry.is_file() and entry.stat().st_mtime < cutoff:
                entry.unlink()
                removed += 1
    return removed
