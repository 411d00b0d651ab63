"""Where file bytes live: the storage backend behind Django's storage API, plus multipart parts.

The default is the local filesystem under ``MEDIA_ROOT``. Every name is built from ids
(``<org id>/<file id>``), never from a user's file name.
Bytes are always moved in chunks: nothing here reads a whole file into memory.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import IO

from django.core.files import File as DjangoFile
from django.core.files.storage import Storage, storages

CHUNK_SIZE = 1024 * 1024


def storage() -> Storage:
    return storages["default"]


def file_blob_name(org_id: str, file_id: str) -> str:
    return f"{org_id}/{file_id}"


def blob_save(name: str, content: IO[bytes]) -> None:
    """Store ``content`` under exactly ``name`` (a temporary upload file is moved, not copied)."""
    saved = storage().save(name, content if hasattr(content, "chunks") else DjangoFile(content))
    if saved != name:  # ids are unique, so the backend never has to pick another name
        storage().delete(saved)
        raise RuntimeError(f"Storage refused the name {name!r}")


def blob_open(name: str) -> IO[bytes]:
    return storage().open(name, "rb")


def blob_delete(name: str) -> None:
    storage().delete(name)


def blob_delete_many(names: Iterable[str]) -> None:
    for name in names:
        storage().delete(name)


def read_chunks(stream: IO[bytes], chunk_size: int = CHUNK_SIZE) -> Iterator[bytes]:
    while chunk := stream.read(chunk_size):
        yield chunk
