"""Multipart bytes on the local filesystem: staged parts, stored parts, the assembled file.

Parts are staged here on every backend; on an object store ``object_store`` takes them from
there onto the store's own multipart upload instead of ``part_place``/``assemble``/``publish``.

Bytes always move in chunks of ``CHUNK_SIZE``: nothing here holds a part or a file in memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings
from django.core.files.move import file_move_safe

from storage_service.files import blobs
from storage_service.files.sniffing import HEAD_SIZE

CHUNK_SIZE = 1024 * 1024


class Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


@dataclass(frozen=True)
class StagedPart:
    """A part's bytes in a temporary file, counted and hashed on the way in.

    ``etag`` is the part's SHA-256 in hex. S3 uses MD5; SHA-256 is as easy for a client to check
    and, with the SHA extensions of current CPUs, over twice as fast, which is what bounds a
    large upload's throughput on a small server.
    """

    path: str
    size: int
    etag: str


@dataclass(frozen=True)
class Assembled:
    """The upload's data file, hashed, that ``publish`` moves into place."""

    path: str
    size: int
    sha256: str
    head: bytes


def data_blob_name(upload_id: str) -> str:
    """The upload's data file: every part is copied in at its own offset as it arrives."""
    return f"{_upload_directory(upload_id)}/data"


def _upload_directory(upload_id: str) -> str:
    return f"uploads/{upload_id}"


def stage_part(stream: Readable, *, expected_size: int) -> StagedPart:
    """Copy a request body into a temporary file; stop one byte past ``expected_size``."""
    digest = hashlib.sha256()
    size = 0
    with _temporary_file("part-") as staged:
        while size <= expected_size:
            chunk = stream.read(min(CHUNK_SIZE, expected_size + 1 - size))
            if not chunk:
                break
            staged.write(chunk)
            digest.update(chunk)
            size += len(chunk)
    return StagedPart(path=staged.name, size=size, etag=digest.hexdigest())


def part_place(staged: StagedPart, *, upload_id: str, offset: int) -> None:
    """Copy a staged part into the upload's data file at ``offset`` (in the kernel if it can).

    Parts have fixed offsets, so the file assembles itself as parts arrive, in parallel
    requests; completing only has to hash it and move it into place. A part is on the disk
    before it is acknowledged: the flush overlaps the other parts' transfers instead of all
    falling on completion.
    """
    path = blobs.storage().path(data_blob_name(upload_id))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    target = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        with open(staged.path, "rb") as source:
            _copy_range(source.fileno(), target, offset, staged.size)
        blobs.sync_file(target)
    finally:
        os.close(target)


def _copy_range(source: int, target: int, offset: int, count: int) -> None:
    copied = 0
    while copied < count:
        try:
            step = os.copy_file_range(
                source, target, count - copied, offset_src=copied, offset_dst=offset + copied
            )
        except (AttributeError, OSError):  # no copy_file_range here: copy through user space
            chunk = os.pread(source, min(CHUNK_SIZE, count - copied), copied)
            step = os.pwrite(target, chunk, offset + copied)
        if step == 0:
            raise OSError(f"Short copy into the upload's data file at {offset + copied}.")
        copied += step


def assemble(upload_id: str) -> Assembled:
    """Hash the upload's data file and read its head; the parts are already in place.

    Raises FileNotFoundError when it is gone (an abort or the expiry sweep got there first).
    """
    path = blobs.storage().path(data_blob_name(upload_id))
    whole = hashlib.sha256()
    size = 0
    with open(path, "rb") as data:
        head = data.read(HEAD_SIZE)
        data.seek(0)
        for chunk in blobs.read_chunks(data, CHUNK_SIZE):
            whole.update(chunk)
            size += len(chunk)
        blobs.sync_file(data.fileno())  # every part's bytes, before the file is acknowledged
    return Assembled(path=path, size=size, sha256=whole.hexdigest(), head=head)


def publish(assembled: Assembled, *, name: str) -> None:
    """Move the assembled file to its final ``name`` (a rename when on the same disk)."""
    _move_into_storage(assembled.path, name)
    blobs.sync_directory_of(blobs.storage().path(name))


def discard(path: str) -> None:
    """Remove a staged file; a file already moved into storage is left alone."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def parts_delete(upload_id: str) -> None:
    """Delete an upload's data file and directory; a missing one is fine."""
    blobs.blob_delete(data_blob_name(upload_id))
    with contextlib.suppress(OSError):  # not empty (a part still arriving) or already gone
        os.rmdir(blobs.storage().path(_upload_directory(upload_id)))


@contextlib.contextmanager
def _temporary_file(prefix: str):
    """A named temporary file beside MEDIA_ROOT, removed unless the block completes."""
    directory = settings.FILE_UPLOAD_TEMP_DIR
    os.makedirs(directory, exist_ok=True)
    handle = tempfile.NamedTemporaryFile(dir=directory, prefix=prefix, delete=False)  # noqa: SIM115
    try:
        with handle:
            yield handle
    except BaseException:
        discard(handle.name)
        raise


def _move_into_storage(path: str, name: str) -> None:
    storage = blobs.storage()
    target = storage.path(name)
    os.makedirs(os.path.dirname(target), exist_ok=True)
    file_move_safe(path, target, allow_overwrite=True)
    if storage.file_permissions_mode is not None:
        os.chmod(target, storage.file_permissions_mode)
