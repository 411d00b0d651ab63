"""Where file bytes live: the storage backend behind Django's storage API.

The default is the local filesystem under ``MEDIA_ROOT``; an S3-compatible object store when
``STORAGE_S3_BUCKET`` is set (django-storages). Every name is built from ids
(``<org id>/<file id>``), never from a user's file name, and bytes are always moved in chunks:
nothing here reads a whole file into memory.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, cast

from django.conf import settings
from django.core.files import File as DjangoFile
from django.core.files.storage import FileSystemStorage, Storage, storages

from shared import readiness

if TYPE_CHECKING:
    from storages.backends.s3 import S3Storage

CHUNK_SIZE = 1024 * 1024


def storage() -> Storage:
    return storages["default"]


def is_local() -> bool:
    """Tell whether bytes live on this machine's filesystem (else in an object store)."""
    return isinstance(storage(), FileSystemStorage)


def _object_store() -> S3Storage:
    """The storage, when bytes live in an object store (``is_local()`` is false)."""
    return cast("S3Storage", storage())


def s3_client():
    """The object store's boto3 client, for what Django's storage API does not cover."""
    return _object_store().connection.meta.client


def s3_bucket() -> str:
    return _object_store().bucket_name


def file_blob_name(org_id: str, file_id: str) -> str:
    return f"{org_id}/{file_id}"


def blob_save(name: str, content: IO[bytes]) -> None:
    """Store ``content`` under exactly ``name`` (a temporary upload file is moved, not copied)."""
    saved = storage().save(name, content if hasattr(content, "chunks") else DjangoFile(content))
    if saved != name:  # ids are unique, so the backend never has to pick another name
        storage().delete(saved)
        raise RuntimeError(f"Storage refused the name {name!r}")
    if is_local():
        sync_directory_of(storage().path(name))


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


def blob_open(name: str) -> IO[bytes]:
    """Open a local blob for reading (object stores are read through signed URLs instead)."""
    return storage().open(name, "rb")


def blob_head(name: str, size: int) -> bytes:
    """Return the first ``size`` bytes of a blob, with a ranged GET on an object store."""
    if is_local():
        with blob_open(name) as stream:
            return stream.read(size)
    response = s3_client().get_object(Bucket=s3_bucket(), Key=name, Range=f"bytes=0-{size - 1}")
    return response["Body"].read()


def blob_chunks(name: str) -> Iterator[bytes]:
    """Stream a blob's bytes in chunks, from disk or from the object store."""
    if is_local():
        with blob_open(name) as stream:
            yield from read_chunks(stream)
        return
    body = s3_client().get_object(Bucket=s3_bucket(), Key=name)["Body"]
    try:
        yield from body.iter_chunks(CHUNK_SIZE)
    finally:
        body.close()


def blob_url(name: str, *, content_type: str, disposition: str, expire: int) -> str:
    """A pre-signed object-store URL that serves the blob with the given headers."""
    parameters = {"ResponseContentType": content_type, "ResponseContentDisposition": disposition}
    return _object_store().url(name, parameters=parameters, expire=expire)


def blob_delete(name: str) -> None:
    storage().delete(name)


def blob_delete_many(names: Iterable[str]) -> None:
    for name in names:
        storage().delete(name)


def read_chunks(stream: IO[bytes], chunk_size: int = CHUNK_SIZE) -> Iterator[bytes]:
    while chunk := stream.read(chunk_size):
        yield chunk


def store_check() -> str:
    """Readiness of the object store (``shared.readiness``): can its bucket be reached?"""
    if is_local():
        return readiness.NOT_CONFIGURED
    try:
        s3_client().head_bucket(Bucket=s3_bucket())
    except Exception:  # unreachable, refused or missing: the reason is not shown
        return readiness.UNREACHABLE
    return readiness.OK
