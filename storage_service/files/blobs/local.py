"""Blobs on this machine's disk: files under ``MEDIA_ROOT``, flushed before they are acknowledged.

A blob is durable once its bytes (``sync_file``) and the directory entry that names it
(``sync_directory_of``) are on the disk; ``FILE_FSYNC`` (``STORAGE_FSYNC``) turns both off.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import IO

from django.conf import settings
from django.core.files.move import file_move_safe
from django.core.files.storage import FileSystemStorage

from shared import readiness
from storage_service.files.blobs import BlobStore, read_chunks


def sync_file(fileno: int) -> None:
    """Flush a file's bytes to the disk (unless FILE_FSYNC is off)."""
    if settings.FILE_FSYNC:
        os.fsync(fileno)


def sync_directory_of(path: str) -> None:
    """Flush the directory entry of ``path``, so that a rename into it survives a crash."""
    if settings.FILE_FSYNC:
        directory = os.open(os.path.dirname(path), os.O_RDONLY)
        try:
            os.fsync(directory)
        finally:
            os.close(directory)


class LocalBlobStore(BlobStore):
    """Blobs as files of a ``FileSystemStorage``; the worker (or nginx) sends their bytes."""

    storage: FileSystemStorage

    def __init__(self, storage: FileSystemStorage) -> None:
        super().__init__(storage)

    def path(self, name: str) -> str:
        """The file that holds (or will hold) ``name``."""
        return self.storage.path(name)

    def save(self, name: str, content: IO[bytes]) -> None:
        super().save(name, content)
        sync_directory_of(self.path(name))

    def move_in(self, path: str, name: str) -> None:
        """Move the file at ``path`` to ``name`` (a rename when on the same disk), durably."""
        target = self.path(name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        file_move_safe(path, target, allow_overwrite=True)
        if self.storage.file_permissions_mode is not None:
            os.chmod(target, self.storage.file_permissions_mode)
        sync_directory_of(target)

    def delete_directory(self, name: str) -> None:
        """Delete the directory ``name`` and all it holds; one already gone is fine."""
        shutil.rmtree(self.path(name), ignore_errors=True)

    def head(self, name: str, size: int) -> bytes:
        with self.open(name) as stream:
            return stream.read(size)

    def chunks(self, name: str) -> Iterator[bytes]:
        with self.open(name) as stream:
            yield from read_chunks(stream)

    def download_url(
        self, name: str, *, content_type: str, disposition: str, expire: int
    ) -> str | None:
        return None  # no one else can read this disk

    def readiness(self) -> str:
        return readiness.NOT_CONFIGURED  # the disk is this machine's: there is no store to reach
