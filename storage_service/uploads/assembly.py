"""Multipart bytes on the local filesystem: staged parts, stored parts, the assembled file.

Parts are staged here on every backend; on an object store ``object_store`` takes them from
there onto the store's own multipart upload instead of ``part_store``/``assemble``/``publish``.

Bytes always move in chunks of ``CHUNK_SIZE``: nothing here holds a part or a file in memory.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterable, Sequence
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
    """A part's bytes in a temporary file, counted and hashed on the way in."""

    path: str
    size: int
    md5: str


@dataclass(frozen=True)
class Assembled:
    """The parts joined in a temporary file that ``publish`` moves into place."""

    path: str
    size: int
    sha256: str
    head: bytes


def part_blob_name(upload_id: str, part_number: int) -> str:
    return f"{_upload_directory(upload_id)}/{part_number:05d}"


def _upload_directory(upload_id: str) -> str:
    return f"uploads/{upload_id}"


def stage_part(stream: Readable, *, expected_size: int) -> StagedPart:
    """Copy a request body into a temporary file; stop one byte past ``expected_size``."""
    digest = hashlib.md5(usedforsecurity=False)
    size = 0
    with _temporary_file("part-") as staged:
        while size <= expected_size:
            chunk = stream.read(min(CHUNK_SIZE, expected_size + 1 - size))
            if not chunk:
                break
            staged.write(chunk)
            digest.update(chunk)
            size += len(chunk)
    return StagedPart(path=staged.name, size=size, md5=digest.hexdigest())


def part_store(staged: StagedPart, *, name: str) -> str:
    """Move a staged part to ``name``, atomically replacing an earlier upload of that part.

    Returns the backend's own etag of the part: none on the local filesystem.
    """
    _move_into_storage(staged.path, name)
    return ""


def assemble(part_names: Sequence[str]) -> Assembled:
    """Join the parts, in order, into a temporary file, hashing the whole.

    Raises FileNotFoundError when a part is gone (an abort or the expiry sweep got there first).
    """
    whole = hashlib.sha256()
    head = bytearray()
    size = 0
    with _temporary_file("assembly-") as out:
        for name in part_names:
            with blobs.storage().open(name, "rb") as part:
                for chunk in blobs.read_chunks(part, CHUNK_SIZE):
                    out.write(chunk)
                    whole.update(chunk)
                    if len(head) < HEAD_SIZE:
                        head += chunk[: HEAD_SIZE - len(head)]
                    size += len(chunk)
    return Assembled(path=out.name, size=size, sha256=whole.hexdigest(), head=bytes(head))


def publish(assembled: Assembled, *, name: str) -> None:
    """Move the assembled file to its final ``name`` (a rename when on the same disk)."""
    _move_into_storage(assembled.path, name)


def discard(path: str) -> None:
    """Remove a staged file; a file already moved into storage is left alone."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def parts_delete(upload_id: str, part_numbers: Iterable[int]) -> None:
    """Delete an upload's stored parts and their directory; missing ones are fine."""
    blobs.blob_delete_many(part_blob_name(upload_id, number) for number in part_numbers)
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
