"""Where file bytes live: one small interface, on this machine's disk or in an object store.

``blob_store()`` answers the store behind ``STORAGES["default"]``: a ``LocalBlobStore`` (files
under ``MEDIA_ROOT``, flushed to the disk) or an ``S3BlobStore`` (any S3-compatible object store,
through django-storages and its boto3 client). Callers use the interface and never ask which one
it is. Every name is built from ids (``<org id>/<file id>``), never from a user's file name, and
bytes always move in chunks: nothing here reads a whole file into memory.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, cast

from django.core.files import File as DjangoFile
from django.core.files.storage import FileSystemStorage, Storage, storages

if TYPE_CHECKING:
    from storages.backends.s3 import S3Storage

CHUNK_SIZE = 1024 * 1024


def file_blob_name(org_id: str, file_id: str) -> str:
    return f"{org_id}/{file_id}"


def read_chunks(stream: IO[bytes], chunk_size: int = CHUNK_SIZE) -> Iterator[bytes]:
    while chunk := stream.read(chunk_size):
        yield chunk


class BlobStore(abc.ABC):
    """Blobs by name: save, read, serve and delete them, and tell whether the store answers."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def save(self, name: str, content: IO[bytes]) -> None:
        """Store ``content`` under exactly ``name`` (a temporary upload file is moved)."""
        saved = self.storage.save(
            name, content if hasattr(content, "chunks") else DjangoFile(content)
        )
        if saved != name:  # ids are unique, so the backend never has to pick another name
            self.storage.delete(saved)
            raise RuntimeError(f"Storage refused the name {name!r}")

    def open(self, name: str) -> IO[bytes]:
        """Open a blob for reading (the caller closes it)."""
        return self.storage.open(name, "rb")

    @abc.abstractmethod
    def head(self, name: str, size: int) -> bytes:
        """Return the first ``size`` bytes of a blob."""

    @abc.abstractmethod
    def chunks(self, name: str) -> Iterator[bytes]:
        """Stream a blob's bytes in chunks of ``CHUNK_SIZE``."""

    def exists(self, name: str) -> bool:
        return self.storage.exists(name)

    def delete(self, name: str) -> None:
        self.storage.delete(name)

    def delete_many(self, names: Iterable[str]) -> None:
        for name in names:
            self.storage.delete(name)

    @abc.abstractmethod
    def download_url(
        self, name: str, *, content_type: str, disposition: str, expire: int
    ) -> str | None:
        """A short-lived URL that serves the blob with these headers, or None: send it yourself."""

    @abc.abstractmethod
    def readiness(self) -> str:
        """Whether the store can be reached, as a ``shared.readiness`` answer."""


def blob_store() -> BlobStore:
    """The store behind ``STORAGES["default"]`` (a test that swaps the storage gets a new one)."""
    return _store_for(storages["default"])


@functools.lru_cache(maxsize=1)
def _store_for(storage: Storage) -> BlobStore:
    # Imported here: each implementation imports the interface from this module.
    from storage_service.files.blobs.local import LocalBlobStore
    from storage_service.files.blobs.s3 import S3BlobStore

    if isinstance(storage, FileSystemStorage):
        return LocalBlobStore(storage)
    return S3BlobStore(cast("S3Storage", storage))  # STORAGE_S3_BUCKET's django-storages
