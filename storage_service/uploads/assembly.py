"""Multipart bytes on the local filesystem: parts written in place, the assembled file.

The bytes of both ways of keeping parts (``parts``). On the filesystem (``on_disk``) a part goes
straight into the upload's data file (``part_write``), which ``assemble`` hashes and ``publish``
moves into place; on an object store (``object_store``) a part is staged here (``stage_part``)
and then sent to the store's own multipart upload.

Bytes always move in chunks of ``CHUNK_SIZE``: nothing here holds a part or a file in memory.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Protocol

from django.conf import settings

from storage_service.files.blobs import read_chunks
from storage_service.files.blobs.local import LocalBlobStore, sync_file
from storage_service.files.hashing import StreamDigest
from storage_service.files.sniffing import HEAD_SIZE

CHUNK_SIZE = 1024 * 1024


class Readable(Protocol):
    def read(self, size: int = ..., /) -> bytes: ...


@dataclass(frozen=True)
class StagedPart:
    """A part's bytes, counted and hashed on the way in (a staged file, or the data file).

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
    digest = StreamDigest()
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


@contextlib.contextmanager
def part_slot(store: LocalBlobStore, upload_id: str, part_number: int) -> Iterator[None]:
    """Hold the part's lock: one request at a time writes a given part of an upload.

    ``flock`` on a file of its own per part, opened anew by each request, so it excludes the
    threads of one worker as well as other workers; parts with other numbers go on in parallel.
    """
    directory = store.path(_upload_directory(upload_id))
    os.makedirs(directory, exist_ok=True)
    lock = os.open(os.path.join(directory, f"{part_number}.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield
    finally:
        os.close(lock)  # and with it the lock


def part_write(
    store: LocalBlobStore, stream: Readable, *, upload_id: str, offset: int, expected_size: int
) -> StagedPart:
    """Write a request body straight into the upload's data file at ``offset``, hashing it.

    Parts have fixed offsets, so the file assembles itself as parts arrive, in parallel
    requests; completing only has to hash it and move it into place. Nothing is staged, so a
    part needs its own size of free space, not twice that. At most ``expected_size`` bytes are
    written (one more is read, to tell a body that is too long); a part of the wrong size, or a
    failure midway, gives the region's blocks back to the filesystem. The part is on the disk
    before it is acknowledged: the flush overlaps the other parts' transfers instead of all
    falling on completion. Call it holding ``part_slot``, with the part's record deleted.
    """
    path = store.path(data_blob_name(upload_id))
    digest = StreamDigest()
    size = 0
    target = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while size <= expected_size:
            chunk = stream.read(min(CHUNK_SIZE, expected_size + 1 - size))
            if not chunk:
                break
            room = expected_size - size
            if len(chunk) <= room:
                _write_all(target, chunk, offset + size)
                digest.update(chunk)
            size += len(chunk)
        if size == expected_size:
            sync_file(target)
        else:
            _release(target, offset, expected_size)
    except BaseException:
        _release(target, offset, expected_size)
        raise
    finally:
        os.close(target)
    return StagedPart(path=path, size=size, etag=digest.hexdigest())


def _write_all(target: int, chunk: bytes, offset: int) -> None:
    view = memoryview(chunk)
    while view:
        written = os.pwrite(target, view, offset)
        view, offset = view[written:], offset + written


_FALLOC_FL_KEEP_SIZE = 0x01
_FALLOC_FL_PUNCH_HOLE = 0x02


def _release(target: int, offset: int, length: int) -> None:
    """Punch a hole where a failed part was written, so that it holds no disk space.

    Linux's ``fallocate``; elsewhere (or on a filesystem without holes) the blocks stay until
    the upload ends, which is as before.
    """
    if length <= 0:
        return
    try:
        fallocate = ctypes.CDLL(None, use_errno=True).fallocate
    except AttributeError:
        return
    fallocate.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
    fallocate(target, _FALLOC_FL_PUNCH_HOLE | _FALLOC_FL_KEEP_SIZE, offset, length)


def assemble(store: LocalBlobStore, upload_id: str) -> Assembled:
    """Hash the upload's data file and read its head; the parts are already in place.

    Raises FileNotFoundError when it is gone (an abort or the expiry sweep got there first).
    """
    path = store.path(data_blob_name(upload_id))
    whole = StreamDigest()
    size = 0
    with open(path, "rb") as data:
        head = data.read(HEAD_SIZE)
        data.seek(0)
        for chunk in read_chunks(data, CHUNK_SIZE):
            whole.update(chunk)
            size += len(chunk)
        sync_file(data.fileno())  # every part's bytes, before the file is acknowledged
    return Assembled(path=path, size=size, sha256=whole.hexdigest(), head=head)


def publish(store: LocalBlobStore, assembled: Assembled, *, name: str) -> None:
    """Move the assembled file to its final ``name`` (a rename when on the same disk)."""
    store.move_in(assembled.path, name)


def discard(path: str) -> None:
    """Remove a staged file; a file already moved into storage is left alone."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)


def parts_delete(store: LocalBlobStore, upload_id: str) -> None:
    """Delete an upload's directory: its data file and its parts' lock files."""
    store.delete_directory(_upload_directory(upload_id))


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
